/**
 * `ratchet hook <event>`: read one Claude Code hook payload from standard input and answer it.
 * Each event's handler lives in its own module (see handlers.ts for the table).
 * Errors fail open (a note on stderr, exit 0) so a Ratchet bug never wedges an agent; the one
 * exception, a state file that cannot be read, is an answer (deny / block naming the file and
 * place), not an error. Projects without Ratchet (no `.ratchet/`, no ratchet.config.json) get no
 * answer at all, so a plugin installed for every project stays out of the others' way.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { StdinTooLargeError, makeContext, type Context, type Io } from '../context.js';
import { writeAnswer, type HookAnswer } from './answer.js';
import { CONFIG_FILE } from './config.js';
import { MAX_PAYLOAD_BYTES, parsePayload, type HookEvent, type HookPayload } from './payload.js';

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

const usesRatchet = (dir: string): boolean => isDir(join(dir, '.ratchet')) || existsSync(join(dir, CONFIG_FILE));

/**
 * The project: `--cwd` when given, else CLAUDE_PROJECT_DIR (Claude Code sets it for hooks), else the
 * nearest directory at or above the payload's cwd that uses Ratchet.
 */
export function hookRoot(io: Io, payload: Pick<HookPayload, 'cwd'>, explicit: string | undefined): string | undefined {
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

/**
 * The answer to a payload over MAX_PAYLOAD_BYTES, which is not read: a deny for a tool call, a block
 * for a stop (the events where letting it through would skip a check). Undefined for the others,
 * which only add context or record what happened.
 */
export function oversizeRefusal(event: HookEvent): HookAnswer | undefined {
  const limit = `${MAX_PAYLOAD_BYTES / (1024 * 1024)} MiB`;
  if (event === 'pre-tool-use') return { kind: 'deny', reason: `Ratchet: this tool call's hook payload is over ${limit}, so it cannot be checked and is refused. Do the work in smaller steps (a command or file content under ${limit} per tool call).` };
  if (event === 'stop' || event === 'subagent-stop') return { kind: 'block', reason: `Ratchet: the ${event === 'stop' ? 'Stop' : 'SubagentStop'} hook payload is over ${limit}, so what this session still owes cannot be checked; stopping is refused. Run \`ratchet run status\` to see what is open.` };
  return undefined;
}

/** Answers one parsed payload for the project at `root`. */
export type HookHandler = (ctx: Context, root: string, payload: HookPayload) => Promise<HookAnswer>;

/**
 * Read, parse and answer one payload with `handler`. The handler is a parameter so that each
 * event's start-up bundle (src/hook/fast/) carries only its own handler's code.
 */
export async function runHookWith(event: HookEvent, io: Io, handler: HookHandler, explicitCwd?: string): Promise<number> {
  const note = (message: string): number => {
    io.stderr(`ratchet hook ${event}: ${message} (failing open: the action goes ahead)\n`);
    return 0;
  };
  let text: string;
  try {
    text = await io.readStdin({ maxBytes: MAX_PAYLOAD_BYTES });
    if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw new StdinTooLargeError(MAX_PAYLOAD_BYTES);
  } catch (err) {
    if (err instanceof StdinTooLargeError) {
      // Not read, so not checked: a tool call or a stop that cannot be checked is refused.
      const refusal = oversizeRefusal(event);
      if (refusal === undefined) return note(`the payload is over ${MAX_PAYLOAD_BYTES} bytes; not read`);
      // The project from --cwd, CLAUDE_PROJECT_DIR or the working directory (the payload's cwd is unread).
      if (hookRoot(io, { cwd: undefined }, explicitCwd) === undefined) return 0;
      writeAnswer(io, refusal);
      return 0;
    }
    return note(`cannot read the payload: ${(err as Error).message}`);
  }
  let payload: HookPayload;
  try {
    payload = parsePayload(text);
  } catch (err) {
    return note(`the payload is not usable JSON: ${(err as Error).message}`);
  }
  try {
    const root = hookRoot(io, payload, explicitCwd);
    if (root === undefined) return 0;
    const ctx = makeContext(io, { json: false, quiet: false, cwd: root, color: false });
    writeAnswer(io, await handler(ctx, root, payload));
    return 0;
  } catch (err) {
    return note(err instanceof Error ? err.message : String(err));
  }
}
