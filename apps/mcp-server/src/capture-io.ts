/**
 * The Io the MCP tools run operations with. The server's stdout and stdin are the JSON-RPC channel,
 * so this Io never touches either: what an operation writes is collected (stderr carries its
 * warnings into a tool error), and standard input is never there: content comes as a tool
 * argument, so an operation that would read it is refused, naming that.
 */
import { CliError, type Io } from '@ratchet/cli';

export interface CapturedIo {
  io: Io;
  stderr: () => string;
}

export interface CaptureOptions {
  cwd: string;
  env: Record<string, string | undefined>;
}

export function captureIo(options: CaptureOptions): CapturedIo {
  const err: string[] = [];
  const io: Io = {
    // Nothing an operation prints is the result (its document is a value): dropped, never the channel.
    stdout: () => undefined,
    stderr: (text) => {
      err.push(text);
    },
    isTTY: false,
    env: options.env,
    cwd: options.cwd,
    // A terminal means "nothing piped": commands that would wait for input refuse instead.
    stdinIsTTY: true,
    readStdin: () => Promise.reject(new CliError('standard input is not available over MCP: pass the content as a tool argument', { code: 'no-stdin' })),
  };
  return { io, stderr: () => err.join('') };
}
