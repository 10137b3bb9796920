/**
 * How a face that is not the command line runs an operation: the MCP server calls this with an
 * operation and the typed input its tool arguments already are, and gets the result document back
 * as a value. The same rules as a command run by commander (program.ts, main.ts): one Context, the
 * trust boundary's check of the command the operation is, storage closed after, and an error turned
 * into the same exit code and error document; no argv is built and no printed output is parsed.
 */
import { checkBoundary } from '../boundary.js';
import { makeContext, type Context, type Io } from '../context.js';
import { failureOf } from '../errors.js';
import { shownPath } from '../paths.js';
import { closeStorage } from '../storage.js';

/** What an operation hands its face: the exit code a command would return and its `--json` document. */
export interface OperationResult {
  exitCode: number;
  document: Record<string, unknown>;
}

export interface OperationOutcome extends OperationResult {
  /** The error's one-line text, when the operation failed (the document is then the error document). */
  message?: string | undefined;
}

/**
 * Run `operation` for `command` (its words, `lessons list`: the trust boundary and the command
 * effects table know it by them) in the project at `cwd`, as `--json` would. `command` may be
 * worked out from the input (`() => 'actions move'`); a CliError it throws (an argument that choice
 * needs is missing) is reported like the operation's own.
 */
export async function invokeOperation(io: Io, cwd: string, command: string | (() => string), operation: (ctx: Context) => Promise<OperationResult>): Promise<OperationOutcome> {
  const ctx = makeContext(io, { json: true, quiet: false, cwd, color: false });
  try {
    checkBoundary(ctx, typeof command === 'string' ? command : command(), {});
    return await operation(ctx);
  } catch (err) {
    const failure = failureOf(err, (path) => shownPath(ctx.cwd, path));
    // An unexpected exception is a bug: its stack goes where a command's would.
    if (failure.internal) io.stderr(`ratchet: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return { exitCode: failure.exitCode, document: failure.document, message: failure.text };
  } finally {
    await closeStorage(ctx);
  }
}
