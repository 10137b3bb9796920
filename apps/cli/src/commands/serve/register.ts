/**
 * `ratchet serve`: a live, read-only web dashboard of the project's state (campaigns, claims and
 * leases, the ready set, blocked work, the task lifecycle, flows, JIXO jobs, what waits for the
 * user, hook refusals, the activity log). Its own area, so no other command pays for it at start-up.
 */
import type { Command } from 'commander';
import type { RegisterArea } from '../../areas.js';

export const DEFAULT_PORT = 7420;

export const registerServe: RegisterArea = (program: Command, action) => {
  program
    .command('serve')
    .description(
      'serve a live dashboard of this project on http://127.0.0.1:7420/ (read-only): each campaign\'s dependency graph with statuses, the ready set, waves and the critical path; ' +
        'who holds each claim and its lease counting down; blocked tasks with reason and cascade; the task lifecycle, open flows, JIXO jobs; what waits for you, with the command to run; ' +
        'hook refusals per rule; the activity log. A change by any process shows within a second. Prints the URL as its first line and runs until Ctrl-C (SIGINT) or SIGTERM',
    )
    .option('--port <n>', `the port (0: any free one, printed); default ${DEFAULT_PORT}`)
    .option('--host <address>', 'the address to listen on; default 127.0.0.1 (this machine only). Another address lets anyone who reaches it read the project\'s state: it is used only when named here, with a warning')
    .addHelpText(
      'after',
      '\nWith RATCHET_STORE=postgres://... the page shows the shared state of every machine (each builder\'s claims\nand leases), polled from the database; files are watched.\n\nExamples:\n  ratchet serve\n  ratchet serve --port 0 --json     # first line: {"url": "http://127.0.0.1:41234/", ...}\n  ratchet --cwd ../other-project serve --port 7421',
    )
    .action(action(() => import('./serve.js')));
};
