/**
 * Whether a Stop payload comes from the harness ending a turn, or from the agent replaying one into
 * `ratchet hook stop` by hand to spend the Stop budget. Two signs of a replay, either enough:
 *   - the process runs in the agent's own shell (Claude Code marks its Bash tool with CLAUDECODE=1;
 *     hooks run without it);
 *   - the session's transcript says a tool call is in flight: its last assistant entry asks for a
 *     tool (a real Stop comes after an answer without one). Read from the last 64 KiB only.
 * Neither is a lock (a shell with the user's rights can fake both); in Claude Code's sandbox the
 * budget lives where the agent's shell cannot write at all.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { HookPayload } from './payload.js';

const TAIL_BYTES = 64 * 1024;

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

export function replayedStop(payload: HookPayload, env: Readonly<Record<string, string | undefined>>): boolean {
  return env.CLAUDECODE === '1' || toolCallInFlight(payload.transcriptPath) === true;
}
