/**
 * The bin's fast path for `ratchet hook <event>`: hooks run on every tool call, so this entry
 * answers them without building the commander tree (`ratchet hook --help` and any other form go
 * through the full program, which registers the same command).
 */
import { processIo } from './context.js';
import { parseHookEvent } from './hook/payload.js';
import { runHook } from './hook/run.js';

/** Exit code for `ratchet hook <event>`; undefined when `args` is not exactly that (the caller falls back). */
export async function runHookFast(args: readonly string[]): Promise<number | undefined> {
  if (args.length !== 2 || args[0] !== 'hook') return undefined;
  const event = parseHookEvent(args[1]!);
  if (event === undefined) return undefined;
  return runHook(event, processIo());
}
