/**
 * `ratchet doctor`: is Ratchet's state as Ratchet left it? Lists state files that were edited by
 * hand (digest mismatch), do not parse, come from a newer Ratchet, or sit behind a stale lock; a
 * person can accept an edit or restore the last good version. Definitions only; the check loads lazily.
 */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

export const registerDoctor: RegisterArea = (program: Command, action) => {
  program
    .command('doctor')
    .description(
      'check the state files under .ratchet/ (and logs/activity.log.jsonl, knowledge_core/lessons.jsonl, knowledge_core/plan_registry.json, and the JIXO logs under .jixo/, with the audit ratchet jixo runs): ' +
        'edited outside Ratchet (their digest does not match what Ratchet last wrote), corrupt (do not parse), written by a newer ' +
        'version (schemaVersion), or behind a stale lock. --accept and --restore are for a person: refused where RATCHET_ACTOR=agent',
    )
    .option('--accept <file>', "keep a hand edit: record the file's current content as good (a new digest)")
    .option('--restore <file>', 'put back the last good version (<file>.prev); the refused content is kept as <file>.rejected-<time>')
    .addHelpText(
      'after',
      '\nExit codes: 0 all well (or the accept/restore was done), 1 problems found, 2 bad input or refused.\n' +
        'Files Ratchet wrote before digests existed, or that were created by hand, have no <file>.digest: they are listed as not tracked.\n' +
        'JSONL logs are appended on every tool call and carry no digest: doctor only checks that every line parses.\n' +
        "It also warns when the repository holds Ratchet's hooks for Codex, Gemini CLI or Copilot CLI and that CLI's own trust record\n" +
        '(~/.codex/config.toml, ~/.gemini/trustedFolders.json, ~/.copilot/config.json) shows it would skip them; warnings do not change the exit code.\n' +
        '\nExamples:\n  ratchet doctor\n  ratchet doctor --json\n  ratchet doctor --restore .ratchet/session.json\n  ratchet doctor --accept .ratchet/flows/s1.json',
    )
    .action(action(() => import('./doctor.js')));
};
