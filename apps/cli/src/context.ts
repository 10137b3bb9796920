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
  /** All of standard input, for `--from-file -`. */
  readStdin: () => Promise<string>;
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

export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
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
