/**
 * `ratchet store ...`: where the project's shared state lives (files, or a PostgreSQL database that
 * several machines share) and moving it between the two.
 */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

export const registerStore: RegisterArea = (program: Command, action) => {
  const store = program
    .command('store')
    .description('the storage backend of the project\'s shared state (RATCHET_STORE or ratchet.config.json "store"): status, export, import');

  store
    .command('status')
    .description('which backend the project uses (file or PostgreSQL, the URL without its password), and how many documents, logs and queues it holds')
    .addHelpText('after', '\nExamples:\n  ratchet store status\n  RATCHET_STORE=postgres://ratchet@db.internal/ratchet ratchet store status --json')
    .action(action(() => import('./status.js')));

  store
    .command('export')
    .description('write every document, log entry and queue item of the project\'s store as JSON Lines (document values round-trip exactly)')
    .option('--out <file>', 'write to this file (atomically) instead of standard output')
    .addHelpText('after', '\nExamples:\n  ratchet store export --out state.jsonl\n  RATCHET_STORE=file ratchet store export | RATCHET_STORE=postgres://ratchet@db/ratchet ratchet store import -')
    .action(action(() => import('./export.js')));

  store
    .command('import')
    .description('load an export into the project\'s store, which must not hold any of its keys yet; a malformed or truncated file is refused (exit 2, naming the line) before anything is written')
    .argument('<file>', 'the export (JSON Lines); "-" reads standard input')
    .addHelpText('after', '\nMoving a project from files to PostgreSQL:\n  RATCHET_STORE=file ratchet store export --out state.jsonl\n  RATCHET_STORE=postgres://ratchet@db/ratchet ratchet store import state.jsonl')
    .action(action(() => import('./import.js')));
};
