import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { TurnTraceSchema, TraceRecordSchema } from '../src/schema.js';
import {
  addEvent,
  endSpan,
  endTurn,
  openTraceLog,
  parseTraceText,
  readTraceConfig,
  replay,
  replayOrder,
  startSpan,
  startTurn,
  type TraceLog,
  type TraceSpan,
} from '../src/index.js';
import { T0, tempDir } from './support.js';

const at = (s: number): number => T0 + s * 1000;

function fresh(rotateBytes?: number): { log: TraceLog; dir: string; file: string } {
  const dir = tempDir('goals-trace-');
  const file = join(dir, '.ratchet', 'traces.jsonl');
  return { log: openTraceLog(file, { rotateBytes, root: dir }), dir, file };
}

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (err) {
    return String((err as { code?: unknown }).code);
  }
  return 'resolved';
};

describe('recording a turn', () => {
  test('a turn with nested spans, events and usage folds into the seed format, and every line is a valid record', async () => {
    const { log, file } = fresh();
    await startTurn(log, 't1', { tokens: 1000, tools: 5, time_ms: 60_000 }, at(0));
    await startSpan(log, 't1', { span_id: 'plan', component: 'planner' }, at(1));
    await addEvent(log, 't1', { kind: 'Decision', summary: 'use the cache', span_id: 'plan', tokens: 300 }, at(2));
    await endSpan(log, 't1', { span_id: 'plan' }, at(3));
    await startSpan(log, 't1', { span_id: 'exec', component: 'executor', depends_on: ['plan'] }, at(4));
    await startSpan(log, 't1', { span_id: 'grep', component: 'grep', parent_span_id: 'exec' }, at(5));
    await addEvent(log, 't1', { kind: 'ToolInvocation', summary: 'grep -r cache', span_id: 'grep' }, at(5));
    await endSpan(log, 't1', { span_id: 'grep', tokens: 50 }, at(6));
    const r = await endTurn(log, 't1', at(10), 'cache added');
    const t = r.trace;
    expect(t).toMatchObject({ turn_id: 't1', status: 'ended', budgets: { tokens: 1000, tools: 5, time_ms: 60_000 }, usage: { tokens: 350, tools: 1, time_ms: 10_000 } });
    expect(t.trace_id).toMatch(/^tr-[0-9a-f]{24}$/);
    expect(t.spans.map((s) => [s.span_id, s.status, s.parent_span_id])).toEqual([['plan', 'ok', undefined], ['exec', 'error', undefined], ['grep', 'ok', 'exec']]);
    // exec was still open at turn end: it was ended there, and its usage includes its child's.
    expect(t.spans[1]).toMatchObject({ end_ts: new Date(at(10)).toISOString(), usage: { tokens: 50, tools: 1, time_ms: 6000 } });
    expect(t.events.map((e) => [e.event_id, e.kind])).toEqual([['e1', 'Decision'], ['e2', 'ToolInvocation'], ['e3', 'Summary']]);
    expect(TurnTraceSchema.safeParse(t).success).toBe(true);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBe(11);
    for (const l of lines) expect(TraceRecordSchema.safeParse(JSON.parse(l)).success, l).toBe(true);
    expect((await log.read()).trace).toEqual(t);
  });

  test('without a turn id, recordings go to the turn started last', async () => {
    const { log } = fresh();
    await startTurn(log, 't1', {}, at(0));
    await endTurn(log, undefined, at(1));
    await startTurn(log, 't2', {}, at(2));
    const r = await addEvent(log, undefined, { kind: 'Observation', summary: 'x' }, at(3));
    expect(r.trace.turn_id).toBe('t2');
    expect((await log.read()).trace?.turn_id).toBe('t2');
    expect((await log.read('t1')).trace?.status).toBe('ended');
  });
});

test('a recording that decides there is nothing to record writes nothing', async () => {
  const { log, file } = fresh();
  await startTurn(log, 't1', {}, at(0));
  const before = readFileSync(file, 'utf8');
  const r = await log.record('t1', () => []);
  expect(r.appended).toEqual([]);
  expect(readFileSync(file, 'utf8')).toBe(before);
  await expect(log.record('nope', () => [])).rejects.toMatchObject({ code: 'trace-state' });
});

describe('budgets', () => {
  test('going past tokens, tools and time_ms of the turn each records one Policy event saying which and by how much', async () => {
    const { log } = fresh();
    await startTurn(log, 't1', { tokens: 100, tools: 1, time_ms: 5000 }, at(0));
    const tok = await addEvent(log, 't1', { kind: 'Observation', summary: 'read', tokens: 130 }, at(1));
    expect(tok.breaches).toEqual([{ scope: 'turn', budget: 'tokens', allowed: 100, used: 130, over: 30 }]);
    expect(tok.appended.at(-1)).toMatchObject({ type: 'event', kind: 'Policy', summary: 'turn t1 went past its tokens budget by 30 tokens (130 used of 100)', payload: { budget: 'tokens', over: 30 } });
    await addEvent(log, 't1', { kind: 'ToolInvocation', summary: 'ls' }, at(2));
    const tools = await addEvent(log, 't1', { kind: 'ToolInvocation', summary: 'cat' }, at(3));
    expect(tools.breaches).toEqual([{ scope: 'turn', budget: 'tools', allowed: 1, used: 2, over: 1 }]);
    // Reported once: more tokens add no second tokens event.
    expect((await addEvent(log, 't1', { kind: 'Observation', summary: 'more', tokens: 10 }, at(4))).breaches).toEqual([]);
    const end = await endTurn(log, 't1', at(9));
    expect(end.breaches).toEqual([{ scope: 'turn', budget: 'time_ms', allowed: 5000, used: 9000, over: 4000 }]);
    // The Policy event is inside the turn, before its end.
    expect(end.appended.map((r) => r.type)).toEqual(['event', 'turn_end']);
    expect(end.trace.events.filter((e) => e.kind === 'Policy').map((e) => e.payload?.budget)).toEqual(['tokens', 'tools', 'time_ms']);
  });

  test("a span's own budgets: tokens and tools of its subtree, time to its end", async () => {
    const { log } = fresh();
    await startTurn(log, 't1', {}, at(0));
    await startSpan(log, 't1', { span_id: 'exec', component: 'executor', budgets: { tokens: 10, tools: 0, time_ms: 1000 } }, at(0));
    await startSpan(log, 't1', { span_id: 'sub', component: 'tool', parent_span_id: 'exec' }, at(0));
    const r = await addEvent(log, 't1', { kind: 'ToolInvocation', summary: 'x', span_id: 'sub', tokens: 11 }, at(0));
    expect(r.breaches.map((b) => [b.scope, b.span_id, b.budget, b.over])).toEqual([['span', 'exec', 'tokens', 1], ['span', 'exec', 'tools', 1]]);
    await endSpan(log, 't1', { span_id: 'sub' }, at(1));
    const end = await endSpan(log, 't1', { span_id: 'exec' }, at(3));
    expect(end.breaches).toEqual([{ scope: 'span', span_id: 'exec', budget: 'time_ms', allowed: 1000, used: 3000, over: 2000 }]);
    expect(end.trace.events.at(-1)).toMatchObject({ kind: 'Policy', span_id: 'exec', summary: 'span exec went past its time_ms budget by 2000 ms (3000 used of 1000)' });
  });
});

describe('history cannot be rewritten', () => {
  test('an ended turn, an end before its start, a closed span, a restarted turn, an unknown turn: refused, nothing written', async () => {
    const { log, file } = fresh();
    expect(await codeOf(addEvent(log, undefined, { kind: 'Decision', summary: 'x' }, at(0)))).toBe('trace-state');
    await startTurn(log, 't1', {}, at(10));
    await startSpan(log, 't1', { span_id: 's1', component: 'c' }, at(11));
    expect(await codeOf(endSpan(log, 't1', { span_id: 's1' }, at(10.5)))).toBe('trace-state');
    expect(await codeOf(addEvent(log, 't1', { kind: 'Decision', summary: 'backdated' }, at(5)))).toBe('trace-state');
    await endSpan(log, 't1', { span_id: 's1' }, at(12));
    expect(await codeOf(endSpan(log, 't1', { span_id: 's1' }, at(13)))).toBe('trace-state');
    expect(await codeOf(addEvent(log, 't1', { kind: 'Observation', summary: 'late', span_id: 's1' }, at(13)))).toBe('trace-state');
    expect(await codeOf(startSpan(log, 't1', { span_id: 's2', component: 'c', depends_on: ['nope'] }, at(13)))).toBe('invalid-input');
    expect(await codeOf(startSpan(log, 't1', { span_id: 's2', component: 'c', depends_on: ['s2'] }, at(13)))).toBe('invalid-input');
    await endTurn(log, 't1', at(14));
    const before = readFileSync(file, 'utf8');
    expect(await codeOf(addEvent(log, 't1', { kind: 'Decision', summary: 'after the fact' }, at(15)))).toBe('trace-state');
    expect(await codeOf(startSpan(log, 't1', { span_id: 's3', component: 'c' }, at(15)))).toBe('trace-state');
    expect(await codeOf(startTurn(log, 't1', {}, at(16)))).toBe('trace-state');
    expect(await codeOf(addEvent(log, 'never', { kind: 'Decision', summary: 'x' }, at(16)))).toBe('trace-state');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  test('hostile ids never become paths or keys', async () => {
    const { log, dir } = fresh();
    for (const id of ['../../x', '__proto__', '', 'a/b', '.hidden', 'x'.repeat(200)]) {
      expect(['invalid-input', 'unsafe-input']).toContain(await codeOf(startTurn(log, id, {}, at(0))));
    }
    await startTurn(log, 't1', {}, at(0));
    expect(await codeOf(startSpan(log, 't1', { span_id: '../../etc', component: 'c' }, at(1)))).toBe('invalid-input');
    expect(readdirSync(join(dir, '.ratchet')).sort()).toEqual(['traces.jsonl']);
    expect(existsSync(join(dir, '..', 'x'))).toBe(false);
  });
});

describe('storage', () => {
  test('rotation by size: files roll to traces.1.jsonl, traces.2.jsonl; a turn that straddles them reads whole', async () => {
    const { log, dir, file } = fresh(1024);
    await startTurn(log, 'long', { tokens: 100_000 }, at(0));
    for (let i = 0; i < 30; i++) await addEvent(log, 'long', { kind: 'Observation', summary: `observation number ${i} ${'.'.repeat(40)}`, tokens: 10 }, at(i + 1));
    const ended = await endTurn(log, 'long', at(40));
    const names = readdirSync(join(dir, '.ratchet')).filter((n) => n.endsWith('.jsonl')).sort();
    expect(names.length).toBeGreaterThan(3);
    expect(names).toContain('traces.1.jsonl');
    expect(names).toContain('traces.2.jsonl');
    for (const n of names) expect(readFileSync(join(dir, '.ratchet', n)).length).toBeLessThanOrEqual(1024);
    const read = await log.read('long');
    expect(read.trace?.events.length).toBe(30);
    expect(read.trace?.usage.tokens).toBe(300);
    expect(read.trace).toEqual(ended.trace);
    expect((await log.readAll()).records.length).toBe(32);
    expect(readFileSync(file, 'utf8')).toContain('turn_end');
  });

  test('a torn last line is skipped with a warning, and the next append cuts it off', async () => {
    const { log, file } = fresh();
    await startTurn(log, 't1', {}, at(0));
    appendFileSync(file, '{"type":"event","turn_id":"t1","ev');
    const read = await log.read('t1');
    expect(read.trace?.turn_id).toBe('t1');
    expect(read.warnings).toEqual([expect.stringMatching(/traces\.jsonl:2: skipped a torn last line/)]);
    await addEvent(log, 't1', { kind: 'Decision', summary: 'ok' }, at(1));
    const after = await log.read('t1');
    expect(after.warnings).toEqual([]);
    expect(after.trace?.events.map((e) => e.summary)).toEqual(['ok']);
  });

  test('a malformed middle line is an error naming the file and line, and nothing is appended to the file', async () => {
    const { log, file } = fresh();
    await startTurn(log, 't1', {}, at(0));
    appendFileSync(file, 'not json\n');
    await addEvent(log, 't1', { kind: 'Decision', summary: 'x' }, at(1)).catch(() => undefined);
    const text = readFileSync(file, 'utf8');
    appendFileSync(file, '');
    const err = await log.read('t1').catch((e: unknown) => e as { code: string; line: number; path: string });
    expect(err).toMatchObject({ line: 2 });
    expect(String((err as { path: string }).path)).toMatch(/traces\.jsonl$/);
    // A record that parses but breaks the format: also placed.
    writeFileSync(file, `${text.split('\n')[0]}\n{"type":"event","turn_id":"t1","event_id":"e1","ts":"x","kind":"Gossip","summary":"s"}\n`);
    await expect(log.read('t1')).rejects.toMatchObject({ code: 'validation-error', line: 2 });
    writeFileSync(file, `${text.split('\n')[0]}\n{"type":"event","turn_id":"t1","__proto__":{"polluted":1}}\n`);
    await expect(log.read('t1')).rejects.toMatchObject({ code: 'unsafe-input' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toContain('__proto__');
  });

  test('CRLF line ends and a BOM are read; a huge or binary file is refused', async () => {
    const { log, file } = fresh();
    await startTurn(log, 't1', {}, at(0));
    await addEvent(log, 't1', { kind: 'Decision', summary: 'x' }, at(1));
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `\uFEFF${text.replaceAll('\n', '\r\n')}`);
    expect((await log.read('t1')).trace?.events.length).toBe(1);
    expect(parseTraceText(`\r\n${text.split('\n')[0]}\r\n\r\n`, 'f.jsonl').records.length).toBe(1);
    writeFileSync(file, Buffer.alloc(17 * 1024 * 1024, 0x20));
    await expect(log.read('t1')).rejects.toMatchObject({ code: 'file-too-large' });
    writeFileSync(file, Buffer.from([0x7b, 0x00, 0xff, 0x0a]));
    await expect(log.read('t1')).rejects.toMatchObject({ code: 'binary-file' });
  });

  test('trace.config.json: budgets and rotation size; a bad one names its line', async () => {
    const dir = tempDir('goals-trace-config-');
    expect(await readTraceConfig(join(dir, 'none.json'))).toEqual({});
    writeFileSync(join(dir, 'ok.json'), '{ "budgets": { "tokens": 5 }, "rotate_bytes": 4096 }');
    expect(await readTraceConfig(join(dir, 'ok.json'))).toEqual({ budgets: { tokens: 5 }, rotate_bytes: 4096 });
    writeFileSync(join(dir, 'bad.json'), '{\n  "budgets": {\n    "tokens": -1\n  }\n}');
    await expect(readTraceConfig(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'validation-error', line: 3 });
  });
});

describe('replay', () => {
  const span = (span_id: string, start: number, depends_on: string[] = []): TraceSpan => ({ span_id, component: 'c', start_ts: new Date(at(start)).toISOString(), status: 'ok', depends_on, usage: { tokens: 0, tools: 0, time_ms: 0 } });

  test('a topological order over depends_on, ties broken by start time then id', () => {
    const spans = [span('d', 0, ['b', 'c']), span('c', 1, ['a']), span('b', 1, ['a']), span('a', 2), span('z', 0)];
    expect(replayOrder(spans).map((s) => s.span_id)).toEqual(['z', 'a', 'b', 'c', 'd']);
    expect(replayOrder([...spans].reverse()).map((s) => s.span_id)).toEqual(['z', 'a', 'b', 'c', 'd']);
  });

  test('a cycle and a dangling depends_on are refused, naming the spans', () => {
    expect(() => replayOrder([span('a', 0, ['c']), span('b', 0, ['a']), span('c', 0, ['b']), span('ok', 0)])).toThrow('cannot replay: depends_on has a cycle (a -> c -> b -> a)');
    expect(() => replayOrder([span('a', 0, ['ghost'])])).toThrow('depends_on names spans the trace does not have (a -> ghost)');
  });

  test('replay of a recorded turn lists each span with its events', async () => {
    const { log } = fresh();
    await startTurn(log, 't1', {}, at(0));
    await startSpan(log, 't1', { span_id: 'b', component: 'c' }, at(1));
    await startSpan(log, 't1', { span_id: 'a', component: 'c', depends_on: ['b'] }, at(1));
    await addEvent(log, 't1', { kind: 'Observation', summary: 'in a', span_id: 'a' }, at(2));
    await addEvent(log, 't1', { kind: 'Decision', summary: 'turn level', proposal_id: 'p1' }, at(2));
    const r = replay((await log.read('t1')).trace!);
    expect(r.order).toEqual(['b', 'a']);
    expect(r.steps[1]!.events.map((e) => e.summary)).toEqual(['in a']);
    expect(r.turn_events).toMatchObject([{ summary: 'turn level', proposal_id: 'p1' }]);
  });
});

describe('concurrency', () => {
  test('parallel recordings into one turn lose nothing and number events uniquely', async () => {
    const { log } = fresh(2048);
    await startTurn(log, 't1', { tools: 10 }, at(0));
    await Promise.all(Array.from({ length: 20 }, (_, i) => addEvent(log, 't1', { kind: 'ToolInvocation', summary: `call ${i}` }, at(1))));
    const t = (await log.read('t1')).trace!;
    const calls = t.events.filter((e) => e.kind === 'ToolInvocation');
    expect(calls.length).toBe(20);
    expect(new Set(t.events.map((e) => e.event_id)).size).toBe(t.events.length);
    expect(t.events.filter((e) => e.kind === 'Policy').length).toBe(1);
  });
});
