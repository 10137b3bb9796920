/**
 * The Io the MCP tools run commands with. The server's stdout and stdin are the JSON-RPC channel,
 * so this Io never touches either: it collects what a command prints, and its standard input is
 * only what a tool argument supplies (a turn commit, a campaign plan), never process.stdin.
 */
import { CliError, type Io } from '@ratchet/cli';

export interface CapturedIo {
  io: Io;
  stdout: () => string;
  stderr: () => string;
}

export interface CaptureOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Text a command reads as standard input (`-`); without it, reading standard input is refused. */
  stdin?: string;
}

export function captureIo(options: CaptureOptions): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  const { stdin } = options;
  const io: Io = {
    stdout: (text) => {
      out.push(text);
    },
    stderr: (text) => {
      err.push(text);
    },
    isTTY: false,
    env: options.env,
    cwd: options.cwd,
    // A terminal means "nothing piped": commands that would wait for input refuse instead.
    stdinIsTTY: stdin === undefined,
    readStdin: (opts = {}) => {
      if (stdin === undefined) return Promise.reject(new CliError('standard input is not available over MCP: pass the content as a tool argument', { code: 'no-stdin' }));
      if (opts.maxBytes !== undefined && Buffer.byteLength(stdin) > opts.maxBytes) {
        return Promise.reject(new CliError(`input is larger than ${opts.maxBytes} bytes`, { code: 'input-too-large' }));
      }
      return Promise.resolve(stdin);
    },
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}
