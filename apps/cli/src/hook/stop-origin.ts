/**
 * Whether a Stop payload comes from the harness ending a turn, or from the agent replaying one into
 * `ratchet hook stop` by hand to spend the Stop budget. Two signs of a replay, either enough:
 *   - the process runs in the agent's own shell (Claude Code marks its Bash tool with CLAUDECODE=1;
 *     hooks run without it);
 *   - the session's transcript says a tool call is in flight: its last assistant entry asks for a
 *     tool (a real Stop comes after an answer without one). Read from the last 64 KiB only.
 * Claude Code writes its transcript on a timer (every 100 ms), so a real Stop can find the tool call
 * before its answer as the last entry. The transcript sign therefore only counts once it has held
 * for SETTLE_MS with the file unchanged: a real Stop's answer lands within that, while a replay's
 * tool call stays in flight until the replay itself exits. A replay waits; a real Stop is never
 * taken for one because the harness was slow to write.
 * Neither is a lock (a shell with the user's rights can fake both); in Claude Code's sandbox the
 * budget lives where the agent's shell cannot write at all.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { HookPayload } from './payload.js';

const TAIL_BYTES = 64 * 1024;
/** How long a transcript must stay unchanged with a tool call in flight before it reads as a replay. */
export const SETTLE_MS = 750;
const POLL_MS = 25;

function tail(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    const size = Math.min(st.size, TAIL_BYTES);
    const buffer = Buffer.alloc(size);
    readSync(fd, buffer, 0, size, st.size - size);
    return buffer.toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether the transcript's last entry is an assistant turn that called a tool (undefined: cannot tell). */
export function toolCallInFlight(transcriptPath: string | undefined): boolean | undefined {
  if (transcriptPath === undefined) return undefined;
  const text = tail(transcriptPath);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let entry: { type?: unknown; message?: { content?: unknown } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // The first line of the tail may be cut: look further back only within the tail.
      continue;
    }
    if (entry.type !== 'assistant') return entry.type === 'user' ? false : undefined;
    const content = entry.message?.content;
    return Array.isArray(content) && content.some((b: unknown) => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'tool_use');
  }
  return undefined;
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * toolCallInFlight, held for `settleMs`: true only when the transcript still shows the tool call
 * after that long. Each growth of the file is read again, so an answer the harness writes late turns
 * the reading to false at once; the wait itself never grows past `settleMs`.
 */
export async function settledToolCallInFlight(transcriptPath: string | undefined, settleMs: number = SETTLE_MS): Promise<boolean | undefined> {
  let reading = toolCallInFlight(transcriptPath);
  if (reading !== true || transcriptPath === undefined) return reading;
  let size = sizeOf(transcriptPath);
  const deadline = Date.now() + settleMs;
  while (Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    const now = sizeOf(transcriptPath);
    if (now === size) continue;
    size = now;
    reading = toolCallInFlight(transcriptPath);
    if (reading !== true) return reading;
  }
  return reading;
}

/** Whether this Stop was replayed by hand; `settleMs` 0 reads the transcript once, as it stands. */
export async function replayedStop(payload: HookPayload, env: Readonly<Record<string, string | undefined>>, settleMs: number = SETTLE_MS): Promise<boolean> {
  return env.CLAUDECODE === '1' || (await settledToolCallInFlight(payload.transcriptPath, settleMs)) === true;
}
