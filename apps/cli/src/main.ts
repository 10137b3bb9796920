import { CommanderError } from 'commander';
import { processIo, type Io } from './context.js';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { versioned } from './output/json-output.js';
import { buildProgram, type ProgramState } from './program.js';

/**
 * Run the CLI with the given arguments (without `node` and the script path) and return the exit
 * code. Never calls process.exit, so tests can drive it in-process and the bin decides.
 */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  const state: ProgramState = { exitCode: EXIT_OK };
  const program = await buildProgram(io, state, argv);
  const wantsJson = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with exitCode 0; every other commander error is a usage error.
      if (err.exitCode === 0) return EXIT_OK;
      if (wantsJson) io.stdout(`${JSON.stringify(versioned('error', { ok: false, error: { code: err.code, message: err.message } }), null, 2)}\n`);
      return EXIT_USAGE;
    }
    return reportFailure(err, io, wantsJson, argv.includes('--quiet') || argv.includes('-q'), state.cwd);
  }
}

async function reportFailure(err: unknown, io: Io, json: boolean, quiet: boolean, cwd: string | undefined): Promise<number> {
  const [{ failureOf }, { shownPath }] = await Promise.all([import('./errors.js'), import('./paths.js')]);
  const failure = failureOf(err, (path) => (cwd === undefined ? path : shownPath(cwd, path)));
  if (json) io.stdout(`${JSON.stringify(failure.document, null, 2)}\n`);
  // An unexpected exception is a bug in Ratchet: show the stack so it can be reported.
  if (failure.internal) io.stderr(`ratchet: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  // Errors are the one thing --quiet does not silence.
  else if (!json || !quiet) io.stderr(`${failure.text}\n`);
  return failure.exitCode;
}
