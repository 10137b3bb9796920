/**
 * What every command receives: where it runs, how to print, and the global flags.
 * Commands never touch process.stdout or process.exit directly, so tests can run them in-process.
 */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout is a terminal: colour and progress only then. */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /** Process working directory; `--cwd` resolves against it. */
  cwd: string;
  /**
   * All of standard input, for `--from-file -`. With `maxBytes`, reading stops as soon as more
   * arrived and the promise rejects with StdinTooLargeError (a huge pipe is never buffered whole).
   */
  readStdin: (options?: { maxBytes?: number }) => Promise<string>;
  /** Whether standard input is a terminal (nothing piped): commands that would wait on it refuse instead. */
  stdinIsTTY?: boolean;
}

/** Standard input went past the caller's `maxBytes`; reading stopped there. */
export class StdinTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`standard input is larger than ${maxBytes} bytes`);
    this.name = 'StdinTooLargeError';
    this.maxBytes = maxBytes;
  }
}

export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
  cwd: string;
  color: boolean;
}

export interface Context extends GlobalOptions {
  io: Io;
  /** Human-readable output (suppressed by --json and --quiet). */
  out: (line: string) => void;
  /** Notes and progress on stderr (suppressed by --quiet). */
  note: (line: string) => void;
  /** The single JSON document of a --json run. */
  emitJson: (value: unknown) => void;
}

/** A command implementation: returns the exit code. */
export type CommandAction = (ctx: Context, args: string[], options: Record<string, unknown>) => number | Promise<number>;

export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    readStdin: async (options = {}) => {
      const max = options.maxBytes ?? Infinity;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of process.stdin) {
        size += (chunk as Buffer).length;
        if (size > max) {
          // Stop reading now: the writer gets EPIPE instead of us buffering the rest.
          process.stdin.destroy();
          throw new StdinTooLargeError(max);
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

export function makeContext(io: Io, options: GlobalOptions): Context {
  return {
    ...options,
    io,
    out: (line) => {
      if (!options.json && !options.quiet) io.stdout(`${line}\n`);
    },
    note: (line) => {
      if (!options.quiet) io.stderr(`${line}\n`);
    },
    emitJson: (value) => {
      io.stdout(`${JSON.stringify(value, null, 2)}\n`);
    },
  };
}
