/**
 * The bin's fast path for `ratchet hook <event>`: hooks run on every tool call, so this entry
 * answers them without building the commander tree (`ratchet hook --help` and any other form go
 * through the full program, which registers the same command).
 */
import { readSync } from 'node:fs';
import { StdinTooLargeError, processIo, type Io } from './context.js';
import { parseHookEvent } from './hook/payload.js';
import { runHook } from './hook/run.js';

/**
 * Standard input read synchronously: Claude Code pipes a few KiB and closes, and a stream costs
 * milliseconds to set up. Reading stops one byte past `maxBytes`. A descriptor that would block
 * (EAGAIN: a non-blocking pipe or a terminal) falls back to the stream reader.
 */
function readStdinFast(fallback: Io['readStdin']): Io['readStdin'] {
  return async (options = {}) => {
    const max = options.maxBytes ?? Infinity;
    const chunks: Buffer[] = [];
    let size = 0;
    const buffer = Buffer.allocUnsafe(64 * 1024);
    try {
      for (;;) {
        const n = readSync(0, buffer, 0, buffer.length, null);
        if (n === 0) break;
        size += n;
        if (size > max) throw new StdinTooLargeError(max);
        chunks.push(Buffer.from(buffer.subarray(0, n)));
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && size === 0) return fallback(options);
      if ((err as NodeJS.ErrnoException).code !== 'EOF') throw err;
    }
    return Buffer.concat(chunks).toString('utf8');
  };
}

/** Exit code for `ratchet hook <event>`; undefined when `args` is not exactly that (the caller falls back). */
export async function runHookFast(args: readonly string[]): Promise<number | undefined> {
  if (args.length !== 2 || args[0] !== 'hook') return undefined;
  const event = parseHookEvent(args[1]!);
  if (event === undefined) return undefined;
  const io = processIo();
  return runHook(event, { ...io, readStdin: readStdinFast(io.readStdin) });
}
