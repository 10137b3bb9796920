/**
 * `ratchet hook <event> [--harness <name>]`: read one hook payload from standard input and answer
 * it. The harness's adapter (adapters/) reads its payload into the one shape the decisions read and
 * writes their answer in its format; each event's handler lives in its own module (dispatch.ts).
 * Errors fail open (a note on stderr, exit 0) so a Ratchet bug never wedges an agent; the one
 * exception, a state file that cannot be read, is an answer (deny / block naming the file and
 * place), not an error. Projects without Ratchet (no `.ratchet/`, no ratchet.config.json) get no
 * answer at all, so a plugin installed for every project stays out of the others' way.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { StdinTooLargeError, makeContext, type Context, type Io } from '../context.js';
import { adapterFor } from './adapters/index.js';
import type { HookAnswer } from './answer.js';
import { CONFIG_FILE } from './config.js';
import type { Harness } from './events.js';
import { MAX_PAYLOAD_BYTES, readPayloadObject, type HookEvent, type HookPayload } from './payload.js';

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

const usesRatchet = (dir: string): boolean => isDir(join(dir, '.ratchet')) || existsSync(join(dir, CONFIG_FILE));

/**
 * The project: `--cwd` when given, else CLAUDE_PROJECT_DIR (Claude Code sets it for hooks, and Gemini
 * CLI and Copilot CLI set it too), else the nearest directory at or above the payload's cwd that
 * uses Ratchet.
 */
export function hookRoot(io: Io, payload: HookPayload, explicit: string | undefined): string | undefined {
  if (explicit !== undefined) return usesRatchet(explicit) ? explicit : undefined;
  const fromEnv = io.env.CLAUDE_PROJECT_DIR;
  if (fromEnv !== undefined && fromEnv !== '' && isDir(fromEnv)) return usesRatchet(fromEnv) ? resolve(fromEnv) : undefined;
  let dir = resolve(io.cwd, payload.cwd ?? '.');
  for (let i = 0; i < 64; i++) {
    if (usesRatchet(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** Answers one parsed payload for the project at `root`. */
export type HookHandler = (ctx: Context, root: string, payload: HookPayload) => Promise<HookAnswer>;

/**
 * Read, parse and answer one payload with `handler`, as `harness` sends and reads them. The handler
 * is a parameter so that each event's start-up bundle (src/hook/fast/) carries only its own
 * handler's code.
 */
export async function runHookWith(event: HookEvent, io: Io, handler: HookHandler, explicitCwd?: string, harness: Harness = 'claude'): Promise<number> {
  const note = (message: string): number => {
    io.stderr(`ratchet hook ${event}${harness === 'claude' ? '' : ` --harness ${harness}`}: ${message} (failing open: the action goes ahead)\n`);
    return 0;
  };
  const adapter = adapterFor(harness);
  let text: string;
  try {
    text = await io.readStdin({ maxBytes: MAX_PAYLOAD_BYTES });
    if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw new StdinTooLargeError(MAX_PAYLOAD_BYTES);
  } catch (err) {
    if (err instanceof StdinTooLargeError) return note(`the payload is over ${MAX_PAYLOAD_BYTES} bytes; not read`);
    return note(`cannot read the payload: ${(err as Error).message}`);
  }
  let payload: HookPayload;
  try {
    payload = adapter.read(event, readPayloadObject(text));
  } catch (err) {
    return note(`the payload is not usable JSON: ${(err as Error).message}`);
  }
  try {
    const root = hookRoot(io, payload, explicitCwd);
    if (root === undefined) return 0;
    const ctx = makeContext(io, { json: false, quiet: false, cwd: root, color: false });
    const reply = adapter.reply(event, await handler(ctx, root, payload));
    if (reply.stdout !== '') io.stdout(reply.stdout);
    return reply.exitCode;
  } catch (err) {
    return note(err instanceof Error ? err.message : String(err));
  }
}
