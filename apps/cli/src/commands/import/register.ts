/** `ratchet import`: coming from Jules, JIXO, FTL, .claude/orchestration or Frontal Cortex. Definitions only. */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

export const registerImport: RegisterArea = (program: Command, action) => {
  program
    .command('import')
    .description(
      "find an original system's layout in <dir> (default: the current directory) and report what Ratchet reads in place and what it " +
        'would convert, and to where; writes only with --write, never over an existing file',
    )
    .argument('<system>', 'jules | jixo | ftl | claude-orchestration | frontal-cortex | auto (every layout found)')
    .argument('[dir]', 'the project directory (default: the current directory)')
    .option('--write', 'carry out the conversions (FTL campaign.json and archive -> .ratchet/, FTL memory.json -> .ratchet/memory.json)')
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 a conversion was refused (its target exists: named, not overwritten), 2 a broken input file (file:line; nothing written), no layout found, or bad usage.\n' +
        '\nExamples:\n  ratchet import auto\n  ratchet import ftl ../legacy-project\n  ratchet import ftl --write\n  ratchet --json import jixo',
    )
    .action(action(() => import('./import.js')));
};
