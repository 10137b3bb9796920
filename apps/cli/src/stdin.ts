/** Standard input held to a limit, for commands that take a document on `-` (a plan, a step output). */
import { StdinTooLargeError, type Context } from './context.js';
import { CliError } from './errors.js';

export async function readStdinLimited(ctx: Context, maxBytes: number, what: string): Promise<string> {
  try {
    const text = await ctx.io.readStdin({ maxBytes });
    // An Io that cannot stop early (tests, embedders) is still held to the limit.
    if (Buffer.byteLength(text) > maxBytes) throw new StdinTooLargeError(maxBytes);
    return text;
  } catch (err) {
    if (!(err instanceof StdinTooLargeError)) throw err;
    throw stdinTooLarge(maxBytes, what);
  }
}

/** The refusal of a document over `maxBytes`, for a face that hands the document over as a value instead. */
export function stdinTooLarge(maxBytes: number, what: string): CliError {
  return new CliError(`${what} on standard input is over ${formatBytes(maxBytes)}, the most it may be; reading stopped there`, { file: '<stdin>', code: 'too-large' });
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : `${n} bytes`;
}
