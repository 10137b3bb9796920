/**
 * The bin's fast path for `ratchet hook <event>`: hooks run on every tool call, so each event has
 * its own start-up bundle (dist/hooks/<event>.cjs for the per-call events, run with a code cache by
 * bin/compile-cache.js; dist/hooks/<event>.js for the rest; built from src/hook/fast/) that answers without
 * building the commander tree and loads only that event's code, as one file. `ratchet hook --help`
 * and any other form go through the full program, which registers the same command.
 */
import { readSync, writeSync } from 'node:fs';
import { StdinTooLargeError, processIo, type Io } from './context.js';
import { parseHarness } from './hook/events.js';
import type { HookEvent } from './hook/payload.js';
import { runHookWith, type HookHandler } from './hook/run.js';

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

/**
 * Written with writeSync on the descriptor: touching process.stdout or process.stdin builds a
 * stream (a socket for a pipe), a few milliseconds a hook would pay on every call. A descriptor
 * that would block (a non-blocking pipe) gets the rest through the stream; a reader that went away
 * (EPIPE) is ignored, as the bin does for every command.
 */
function writeFd(fd: 1 | 2): (text: string) => void {
  return (text) => {
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw err;
      (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(done));
    }
  };
}

/** The process's Io for a hook: no terminal questions (Claude Code pipes both ends). */
function hookIo(): Io {
  return {
    stdout: writeFd(1),
    stderr: writeFd(2),
    isTTY: false,
    stdinIsTTY: false,
    env: process.env,
    cwd: process.cwd(),
    readStdin: readStdinFast((options) => processIo().readStdin(options)),
  };
}

/**
 * Exit code for `ratchet hook <event> [--harness <name>]` answered by `handler` in this process;
 * undefined for a harness this build does not know (the bin then runs the full program, which
 * says so).
 */
export async function hookMain(event: HookEvent, handler: HookHandler, harnessName?: string): Promise<number | undefined> {
  const harness = harnessName === undefined ? 'claude' : parseHarness(harnessName);
  if (harness === undefined) return undefined;
  return runHookWith(event, hookIo(), handler, undefined, harness);
}
