/**
 * `ratchet hook <event> [--harness <name>]`: read one hook payload from standard input and answer
 * it. The harness's adapter (adapters/) reads its payload into the one shape the decisions read and
 * writes their answer in its format; each event's handler lives in its own module (src/hook/fast/).
 * A hook that cannot decide refuses (DESIGN.md principle 11): a payload that cannot be read or is
 * too large, or an error inside Ratchet, denies the tool call (read-only tools excepted) and blocks
 * the stop, saying why; events that cannot refuse (post-tool-use, session start, a prompt) note it
 * on stderr. Projects without Ratchet (no `.ratchet/`, no ratchet.config.json) get no answer at
 * all, so a plugin installed for every project stays out of the others' way.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { StdinTooLargeError, makeContext, type Context, type Io } from '../context.js';
import { adapterFor } from './adapters/index.js';
import type { HookAnswer } from './answer.js';
import { CONFIG_FILE } from './config.js';
import { eventSpec, type Harness } from './events.js';
import { recordRefusal } from './refusals.js';
import { MAX_PAYLOAD_BYTES, claudeEventName, readPayloadObject, type HookEvent, type HookPayload } from './payload.js';
import { READ_ONLY_TOOLS } from './step-tools.js';

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
  const refusal = eventSpec(event).refusal;
  if (refusal === 'deny') return { kind: 'deny', reason: `Ratchet: this tool call's hook payload is over ${limit}, so it cannot be checked and is refused. Do the work in smaller steps (a command or file content under ${limit} per tool call).` };
  if (refusal === 'block') return { kind: 'block', reason: `Ratchet: the ${claudeEventName(event)} hook payload is over ${limit}, so what this session still owes cannot be checked; stopping is refused. Run \`ratchet run status\` to see what is open.` };
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
  const adapter = adapterFor(harness);
  const answer = (a: HookAnswer): number => {
    const reply = adapter.reply(event, a);
    if (reply.stdout !== '') io.stdout(reply.stdout);
    return reply.exitCode;
  };
  /** Refuse what can be refused, saying why; note the rest. Silent outside Ratchet projects. */
  const failClosed = (message: string, payload?: HookPayload): number => {
    if (hookRoot(io, payload ?? EMPTY_PAYLOAD, explicitCwd) === undefined) return 0;
    const why = `Ratchet could not decide (${message}), so it refuses until it can; if this persists, a person runs \`ratchet doctor\``;
    const refusal = eventSpec(event).refusal;
    if (refusal === 'deny' && !(payload?.toolName !== undefined && READ_ONLY_TOOLS.has(payload.toolName))) return answer({ kind: 'deny', reason: `${why}.` });
    if (refusal === 'block') return answer({ kind: 'block', reason: `${why}.` });
    io.stderr(`ratchet hook ${event}${harness === 'claude' ? '' : ` --harness ${harness}`}: ${message}\n`);
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
      if (refusal === undefined) return failClosed(`the hook payload is over ${MAX_PAYLOAD_BYTES} bytes and was not read`);
      return hookRoot(io, EMPTY_PAYLOAD, explicitCwd) === undefined ? 0 : answer(refusal);
    }
    return failClosed(`cannot read the hook payload: ${(err as Error).message}`);
  }
  let payload: HookPayload;
  try {
    payload = adapter.read(event, readPayloadObject(text));
  } catch (err) {
    return failClosed(`the hook payload is not usable JSON: ${(err as Error).message}`);
  }
  try {
    const root = hookRoot(io, payload, explicitCwd);
    if (root === undefined) return 0;
    const ctx = makeContext(io, { json: false, quiet: false, cwd: root, color: false });
    const decided = await handler(ctx, root, payload);
    const code = answer(decided);
    // After the answer, never instead of it: a refusal goes to the log `ratchet serve` shows.
    if (decided.kind === 'deny' || decided.kind === 'block') await recordRefusal(root, event, decided, payload, io.env).catch((err: unknown) => io.stderr(`ratchet hook ${event}: the refusal was not logged: ${(err as Error).message}\n`));
    return code;
  } catch (err) {
    return failClosed(err instanceof Error ? err.message : String(err), payload);
  }
}

const EMPTY_PAYLOAD: HookPayload = { sessionId: undefined, cwd: undefined, eventName: undefined, toolName: undefined, toolInput: {}, toolResponse: undefined, prompt: undefined, stopHookActive: false, toolUseId: undefined, transcriptPath: undefined };
