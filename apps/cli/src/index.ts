/**
 * @ratchet/cli as a library: run the `ratchet` command in-process (for harnesses and tests) and
 * read its command tree (protocol docs embed each command's usage from here, so they cannot drift).
 */
export { run } from './main.js';
export { buildProgram } from './program.js';
export type { CommandAction } from './program.js';
export type { Context, Io, GlobalOptions } from './context.js';
export { CliError } from './errors.js';
export { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './exit-codes.js';
