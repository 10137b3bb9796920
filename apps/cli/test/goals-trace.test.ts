import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ok, ratchet, refusalKeepsState } from './fuzz-inputs.js';

const T = (s: number): string => new Date(Date.parse('2030-01-01T00:00:00Z') + s * 1000).toISOString();
const dirOf = (): string => mkdtempSync(join(tmpdir(), 'cli-goals-trace-'));
const traceFile = (dir: string): string => join(dir, '.ratchet', 'traces.jsonl');

const step = (n: number, parallel: string): string => `## Step ${n}: step ${n}\nSuccess Criteria: done when checked\nActions: do it\nParallelizable with: ${parallel}\n\n`;
const PLAN = `Measure, then fix.\n\n${step(1, 'None')}${step(2, 'None')}`;

describe('ratchet turn start|end and turn trace span|event|show|replay', { timeout: 120_000 }, () => {
  test('a harness records a turn; show prints the tree with budgets used vs allowed; replay orders the spans', async () => {
    const dir = dirOf();
    const s = await ok(dir, ['turn', 'start', 't1', '--tokens', '1000', '--tools', '1', '--time-ms', '60000', '--now', T(0)]);
    expect(s.out).toContain('started turn t1 (budgets: tokens 1000, tools 1, time_ms 60000)');
    await ok(dir, ['turn', 'trace', 'span', 'start', 'plan', '--component', 'planner', '--now', T(1)]);
    await ok(dir, ['turn', 'trace', 'event', 'Decision', 'use a cache', '--span', 'plan', '--tokens', '200', '--payload', '{"options":2}', '--now', T(2)]);
    await ok(dir, ['turn', 'trace', 'span', 'end', 'plan', '--now', T(3)]);
    await ok(dir, ['turn', 'trace', 'span', 'start', 'exec', '--component', 'executor', '--depends-on', 'plan', '--now', T(4)]);
    await ok(dir, ['turn', 'trace', 'event', 'ToolInvocation', 'grep -r cache', '--span', 'exec', '--now', T(5)]);
    const over = await ok(dir, ['turn', 'trace', 'event', 'ToolInvocation', 'sed -i', '--span', 'exec', '--now', T(6)]);
    expect(over.err).toContain('budget: turn t1 went past its tools budget by 1 tool invocations (2 used of 1)');
    await ok(dir, ['turn', 'trace', 'span', 'end', 'exec', '--tokens', '50', '--now', T(7)]);
    await ok(dir, ['turn', 'end', '--summary', 'cache added', '--now', T(8)]);

    const show = await ok(dir, ['turn', 'trace', 'show']);
    expect(show.out).toContain('turn t1  [ended]');
    expect(show.out).toContain('used: tokens 250/1000, tools 2/1 OVER, time_ms 8000/60000');
    expect(show.out).toMatch(/\n {2}plan \[ok\] planner/);
    expect(show.out).toMatch(/\n {4}e1 Decision {2}use a cache/);
    expect(show.out).toMatch(/exec \[ok\] executor .* after plan/);
    expect(show.out).toContain('Policy  turn t1 went past its tools budget');
    const json = JSON.parse((await ok(dir, ['--json', 'turn', 'trace', 'show', 't1'])).out) as Record<string, unknown>;
    expect(json).toMatchObject({ $schema: 'https://unpkg.com/@ratchet/cli/schemas/output/turn-trace-show.v1.schema.json', ok: true, trace: { turn_id: 't1', status: 'ended', usage: { tokens: 250, tools: 2 } }, over: [{ scope: 'turn', budget: 'tools', over: 1 }] });
    expect(json.tree).toEqual([{ span_id: 'plan', events: ['e1'], children: [] }, { span_id: 'exec', events: ['e2', 'e3'], children: [] }]);

    const rep = JSON.parse((await ok(dir, ['--json', 'turn', 'trace', 'replay', 't1'])).out) as { order: string[]; $schema: string };
    expect(rep.order).toEqual(['plan', 'exec']);
    expect(rep.$schema).toContain('turn-trace-replay.v1');
    expect((await ok(dir, ['turn', 'trace', 'replay'])).out).toContain('2. exec [ok] executor  after plan');
  });

  test('budgets from .ratchet/trace.config.json; each of tokens, tools and time_ms exceeded is a Policy event', async () => {
    const dir = dirOf();
    mkdirSync(join(dir, '.ratchet'));
    writeFileSync(join(dir, '.ratchet', 'trace.config.json'), JSON.stringify({ budgets: { tokens: 10, tools: 0, time_ms: 1000 } }));
    await ok(dir, ['turn', 'start', 't1', '--now', T(0)]);
    const tokens = await ok(dir, ['turn', 'trace', 'event', 'Observation', 'read', '--tokens', '15', '--now', T(0)]);
    expect(tokens.err).toContain('went past its tokens budget by 5 tokens (15 used of 10)');
    const tools = await ok(dir, ['turn', 'trace', 'event', 'ToolInvocation', 'ls', '--now', T(0)]);
    expect(tools.err).toContain('went past its tools budget by 1 tool invocations');
    const time = await ok(dir, ['--json', 'turn', 'end', '--now', T(3)]);
    expect((JSON.parse(time.out) as { breaches: unknown }).breaches).toEqual([{ scope: 'turn', budget: 'time_ms', allowed: 1000, used: 3000, over: 2000 }]);
    const show = JSON.parse((await ok(dir, ['--json', 'turn', 'trace', 'show'])).out) as { trace: { budgets: object; events: { kind: string; payload?: { budget?: string } }[] } };
    expect(show.trace.budgets).toEqual({ tokens: 10, tools: 0, time_ms: 1000 });
    expect(show.trace.events.filter((e) => e.kind === 'Policy').map((e) => e.payload?.budget)).toEqual(['tokens', 'tools', 'time_ms']);
    // Flags win over the config.
    await ok(dir, ['turn', 'start', 't2', '--tokens', '99', '--now', T(4)]);
    expect((JSON.parse((await ok(dir, ['--json', 'turn', 'trace', 'show', 't2'])).out) as { trace: { budgets: unknown } }).trace.budgets).toEqual({ tokens: 99, tools: 0, time_ms: 1000 });
  });

  test("an agent's shortcuts are refused (exit 1) and change nothing: recording into an ended turn, ending a span before it started, backdating", async () => {
    const dir = dirOf();
    await ok(dir, ['turn', 'start', 't1', '--now', T(10)]);
    await ok(dir, ['turn', 'trace', 'span', 'start', 's1', '--now', T(11)]);
    expect(await refusalKeepsState(dir, ['turn', 'trace', 'span', 'end', 's1', '--now', T(10.5)])).toBe(1);
    expect(await refusalKeepsState(dir, ['turn', 'trace', 'event', 'Decision', 'decided long ago', '--now', T(1)])).toBe(1);
    await ok(dir, ['turn', 'trace', 'span', 'end', 's1', '--now', T(12)]);
    expect(await refusalKeepsState(dir, ['turn', 'trace', 'event', 'Observation', 'late', '--span', 's1', '--now', T(13)])).toBe(1);
    await ok(dir, ['turn', 'end', 't1', '--now', T(14)]);
    const r = await ratchet(dir, ['turn', 'trace', 'event', 'Decision', 'rewrite history', '--turn', 't1', '--now', T(15)]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('turn t1 ended at');
    expect(await refusalKeepsState(dir, ['turn', 'trace', 'span', 'start', 's2', '--turn', 't1', '--now', T(15)])).toBe(1);
    expect(await refusalKeepsState(dir, ['turn', 'start', 't1', '--now', T(16)])).toBe(1);
    expect(await refusalKeepsState(dir, ['turn', 'end', 't1', '--now', T(16)])).toBe(1);
  });

  test('bad input: hostile ids, bad kinds and payloads exit 2 and write nothing', async () => {
    const dir = dirOf();
    await ok(dir, ['turn', 'start', 't1', '--now', T(0)]);
    for (const args of [
      ['turn', 'start', '../../x'],
      ['turn', 'start', '__proto__'],
      ['turn', 'trace', 'show', '../../x'],
      ['turn', 'trace', 'event', 'Decision', 'x', '--turn', '../../x', '--now', T(1)],
      ['turn', 'trace', 'span', 'start', '../../etc'],
      ['turn', 'trace', 'span', 'start', 's', '--depends-on', 'ghost', '--now', T(1)],
      ['turn', 'trace', 'event', 'Gossip', 'x'],
      ['turn', 'trace', 'event', 'Decision', 'x', '--payload', '{"__proto__":{"a":1}}'],
      ['turn', 'trace', 'event', 'Decision', 'x', '--payload', '[1]'],
      ['turn', 'trace', 'event', 'Decision', 'x', '--tokens', '-3'],
      ['turn', 'start', 't9', '--traces', '../outside.jsonl'],
    ]) {
      expect(await refusalKeepsState(dir, args), args.join(' ')).toBe(2);
    }
    expect(existsSync(join(dir, '..', 'x'))).toBe(false);
    expect(existsSync(join(dir, '..', 'outside.jsonl'))).toBe(false);
  });

  test('trace files: a torn last line is a warning; a malformed middle line, a cycle, a dangling depends_on, huge and binary files exit 2 naming file and place', async () => {
    const dir = dirOf();
    await ok(dir, ['turn', 'start', 't1', '--now', T(0)]);
    await ok(dir, ['turn', 'trace', 'span', 'start', 'a', '--now', T(1)]);
    await ok(dir, ['turn', 'trace', 'span', 'start', 'b', '--depends-on', 'a', '--now', T(2)]);
    const good = readFileSync(traceFile(dir), 'utf8');
    appendFileSync(traceFile(dir), '{"type":"event","tu');
    const torn = await ok(dir, ['turn', 'trace', 'show', 't1']);
    expect(torn.err).toMatch(/warning: .*traces\.jsonl:4: skipped a torn last line/);
    // CRLF and a BOM read the same.
    writeFileSync(traceFile(dir), `\uFEFF${good.replaceAll('\n', '\r\n')}`);
    expect((await ok(dir, ['turn', 'trace', 'replay', 't1'])).out).toContain('2. b');
    const lines = good.trimEnd().split('\n');
    writeFileSync(traceFile(dir), `${lines[0]}\n{"type": oops}\n${lines.slice(1).join('\n')}\n`);
    const bad = await ratchet(dir, ['turn', 'trace', 'show', 't1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^\.ratchet\/traces\.jsonl:2:10: expected a JSON value/);
    expect(await refusalKeepsState(dir, ['turn', 'trace', 'event', 'Decision', 'x'])).toBe(2);
    // A cycle and a dangling depends_on can only come from a hand-edited file: replay refuses both.
    const cyc = good.replace('"depends_on":[]', '"depends_on":["b"]');
    writeFileSync(traceFile(dir), cyc);
    const cycle = await ratchet(dir, ['turn', 'trace', 'replay', 't1']);
    expect(cycle.code).toBe(2);
    expect(cycle.err).toContain('cycle (a -> b -> a)');
    writeFileSync(traceFile(dir), good.replace('"depends_on":["a"]', '"depends_on":["zz"]'));
    const dangling = await ratchet(dir, ['--json', 'turn', 'trace', 'replay', 't1']);
    expect(dangling.code).toBe(2);
    expect((JSON.parse(dangling.out) as { error: { message: string } }).error.message).toContain('(b -> zz)');
    writeFileSync(traceFile(dir), `${good}${' '.repeat(17 * 1024 * 1024)}\n`);
    const huge = await ratchet(dir, ['turn', 'trace', 'show', 't1']);
    expect(huge.code).toBe(2);
    expect(huge.err).toContain('traces.jsonl');
    writeFileSync(traceFile(dir), Buffer.from([0x7b, 0x00, 0x01, 0x0a]));
    expect((await ratchet(dir, ['turn', 'trace', 'show', 't1'])).code).toBe(2);
    expect((await ratchet(dirOf(), ['turn', 'trace', 'show'])).code).toBe(2);
  });

  test('rotation by size: rotate_bytes from the config; a turn across files shows whole', async () => {
    const dir = dirOf();
    mkdirSync(join(dir, '.ratchet'));
    writeFileSync(join(dir, '.ratchet', 'trace.config.json'), '{ "rotate_bytes": 1024 }');
    await ok(dir, ['turn', 'start', 't1', '--now', T(0)]);
    for (let i = 0; i < 12; i++) await ok(dir, ['turn', 'trace', 'event', 'Observation', `note ${i} ${'x'.repeat(60)}`, '--now', T(i + 1)]);
    const names = readdirSync(join(dir, '.ratchet')).filter((n) => /^traces(\.\d+)?\.jsonl$/.test(n)).sort();
    expect(names).toEqual(expect.arrayContaining(['traces.jsonl', 'traces.1.jsonl', 'traces.2.jsonl']));
    const show = JSON.parse((await ok(dir, ['--json', 'turn', 'trace', 'show', 't1'])).out) as { trace: { events: unknown[] } };
    expect(show.trace.events.length).toBe(12);
    writeFileSync(join(dir, '.ratchet', 'trace.config.json'), '{ "rotate_bytes": 10 }');
    const badConfig = await ratchet(dir, ['turn', 'start', 't2']);
    expect(badConfig.code).toBe(2);
    expect(badConfig.err).toContain('trace.config.json');
  });
});

describe('the planner, commits and proposals record into the open turn', { timeout: 120_000 }, () => {
  test('plan steps are spans depending on the steps they wait for; a commit and the proposal it filed are events', async () => {
    const dir = dirOf();
    writeFileSync(join(dir, 'plan.md'), PLAN);
    // No open turn: plans work as before, nothing is traced.
    await ok(dir, ['goals', 'plan', 'start', 'plan.md', '--id', 'old']);
    expect(existsSync(traceFile(dir))).toBe(false);
    await ok(dir, ['turn', 'start', 't1', '--now', T(0)]);
    await ok(dir, ['goals', 'plan', 'start', 'plan.md', '--now', T(1)]);
    await ok(dir, ['goals', 'plan', 'step', 'pl1', '1', 'start', '--now', T(2)]);
    await ok(dir, ['goals', 'plan', 'step', 'pl1', '1', 'succeed', '--evidence', 'bench.json', '--now', T(3)]);
    await ok(dir, ['goals', 'plan', 'step', 'pl1', '2', 'start', '--now', T(4)]);
    await ok(dir, ['goals', 'plan', 'step', 'pl1', '2', 'fail', '--reason', 'flaky', '--regenerate', '--now', T(5)]);
    writeFileSync(join(dir, 'commit.json'), JSON.stringify({ turn_id: 't1', new_actions: [{ type: 'deploy_window', title: 'Pick a window' }] }));
    await ok(dir, ['turn', 'commit', 'commit.json', '--now', T(6)]);
    await ok(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user', '--now', T(7)]);
    const t = (JSON.parse((await ok(dir, ['--json', 'turn', 'trace', 'show', 't1'])).out) as { trace: unknown }).trace as { spans: { span_id: string; status: string; depends_on: string[] }[]; events: { kind: string; summary: string; span_id?: string; proposal_id?: string }[] };
    expect(t.spans).toMatchObject([{ span_id: 'pl1.s1', status: 'ok', depends_on: [] }, { span_id: 'pl1.s2', status: 'error', depends_on: ['pl1.s1'] }]);
    expect(t.events.map((e) => [e.kind, e.span_id])).toEqual([
      ['Decision', undefined],
      ['Observation', 'pl1.s1'],
      ['Error', 'pl1.s2'],
      ['Decision', undefined],
      ['Decision', undefined],
      ['Policy', undefined],
      ['Decision', undefined],
    ]);
    expect(t.events[5]).toMatchObject({ kind: 'Policy', proposal_id: 'p1' });
    expect(t.events[6]).toMatchObject({ kind: 'Decision', proposal_id: 'p1' });
    expect(t.events[6]!.summary).toContain('approved');
    expect((await ok(dir, ['turn', 'trace', 'replay'])).out).toMatch(/1\. pl1\.s1[\s\S]*2\. pl1\.s2/);
    // After the turn ends, a proposal move records nothing (and still succeeds).
    await ok(dir, ['turn', 'end', '--now', T(8)]);
    const before = readFileSync(traceFile(dir), 'utf8');
    await ok(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user', '--comments', 'again', '--now', T(9)]);
    expect(readFileSync(traceFile(dir), 'utf8')).toBe(before);
  });
});
