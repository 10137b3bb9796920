/**
 * Where a Stop comes from (src/hook/stop-origin.ts): the transcript sign of a replay, and its settle
 * wait, which keeps a real Stop whose answer Claude Code writes late (its transcript is written on a
 * 100 ms timer) from being taken for a replay that would not spend the Stop budget.
 */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parsePayload } from '../src/hook/payload.js';
import { replayedStop, settledToolCallInFlight, toolCallInFlight } from '../src/hook/stop-origin.js';

const line = (entry: unknown): string => `${JSON.stringify(entry)}\n`;
const toolCall = line({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ratchet flow advance' } }] } });
const toolResult = line({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } });
const answer = line({ type: 'assistant', message: { content: [{ type: 'text', text: 'Stop 2.' }] } });

const stopPayload = (transcriptPath: string | undefined) => parsePayload(JSON.stringify({ hook_event_name: 'Stop', transcript_path: transcriptPath }));

function transcript(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ratchet-stop-origin-')), 'transcript.jsonl');
  writeFileSync(file, text);
  return file;
}

describe('toolCallInFlight', () => {
  test('reads the last whole entry: a tool call in flight, an answer, a tool result', () => {
    expect(toolCallInFlight(transcript(toolCall))).toBe(true);
    expect(toolCallInFlight(transcript(toolCall + toolResult))).toBe(false);
    expect(toolCallInFlight(transcript(toolCall + toolResult + answer))).toBe(false);
  });

  test('cannot tell from a missing, empty, directory or unparseable transcript', () => {
    expect(toolCallInFlight(undefined)).toBeUndefined();
    expect(toolCallInFlight(join(tmpdir(), 'no-such-ratchet-transcript.jsonl'))).toBeUndefined();
    expect(toolCallInFlight(transcript(''))).toBeUndefined();
    expect(toolCallInFlight(tmpdir())).toBeUndefined();
    expect(toolCallInFlight(transcript('\u0000\u0001binary{'))).toBeUndefined();
    // A half-written last line is skipped: the whole entry before it decides.
    expect(toolCallInFlight(transcript(toolCall + toolResult + answer.slice(0, 20)))).toBe(false);
  });
});

describe('settledToolCallInFlight: the sign must hold while the transcript stays unchanged', () => {
  test('a real Stop whose answer is written after the hook first looked is not a replay', async () => {
    const file = transcript(toolCall);
    const reading = settledToolCallInFlight(file, 5_000);
    // Claude Code's next flush: the tool result and the answer land while the hook waits.
    setTimeout(() => appendFileSync(file, toolResult + answer), 150);
    const started = Date.now();
    expect(await reading).toBe(false);
    // It answered when the file changed, not at the end of the wait.
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  test('a replay (the tool call stays in flight: the replay is that tool call) reads true after the wait', async () => {
    const file = transcript(toolResult + toolCall);
    const started = Date.now();
    expect(await settledToolCallInFlight(file, 300)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  test('growth that still ends in a tool call keeps waiting, and then reads true', async () => {
    const file = transcript(toolCall);
    const reading = settledToolCallInFlight(file, 400);
    setTimeout(() => appendFileSync(file, toolResult + toolCall), 100);
    expect(await reading).toBe(true);
  });

  test('no wait when nothing is in flight, or when asked for none', async () => {
    const started = Date.now();
    expect(await settledToolCallInFlight(transcript(answer), 5_000)).toBe(false);
    expect(await settledToolCallInFlight(transcript(toolCall), 0)).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('replayedStop', () => {
  test("the agent's shell (CLAUDECODE=1) is a replay whatever the transcript says", async () => {
    expect(await replayedStop(stopPayload(transcript(answer)), { CLAUDECODE: '1' }, 0)).toBe(true);
    expect(await replayedStop(stopPayload(transcript(answer)), {}, 0)).toBe(false);
    expect(await replayedStop(stopPayload(undefined), {}, 0)).toBe(false);
  });
});
