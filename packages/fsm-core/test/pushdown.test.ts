import { describe, expect, test } from 'vitest';
import {
  callChain,
  DEFAULT_MAX_DEPTH,
  depth,
  InvalidArgumentError,
  InvalidSnapshotError,
  isAccepted,
  RecursionDepthError,
  RejectedEventError,
  restore,
  start,
  step,
  UnknownMachineError,
  type Machines,
  type RunEvent,
  type RunSnapshot,
  type StepResult,
} from '../src/index.js';
import { fdcMap, load } from './fixtures.js';

const fdc = load(fdcMap());
// A sub-machine: a research plan. IDLE -plan_op-> GATHERING -read_op*-> ... -close_op-> DONE.
const research = load({
  id: 'research',
  states: ['IDLE', 'GATHERING', 'DONE'],
  alphabet: ['plan_op', 'read_op', 'close_op'],
  transitions: { IDLE: { plan_op: 'GATHERING' }, GATHERING: { read_op: 'GATHERING', close_op: 'DONE' } },
  start_state: 'IDLE',
  accept_states: ['DONE'],
});
const machines: Machines = { fdc, research };

function ok(r: StepResult): RunSnapshot {
  if (!r.ok) throw r.error;
  return r.snapshot;
}

function run(snapshot: RunSnapshot, events: RunEvent[], ms: Machines = machines): RunSnapshot {
  return events.reduce((s, e) => ok(step(s, ms, e)), snapshot);
}

const sym = (symbol: string): RunEvent => ({ type: 'symbol', symbol });

describe('pushdown runs', () => {
  test('start: the machine id, its start state, an empty stack, default depth 10', () => {
    expect(start(fdc)).toEqual({ schemaVersion: 1, machine: 'fdc', state: 'IDLE', stack: [], history: [], maxDepth: 10 });
    expect(DEFAULT_MAX_DEPTH).toBe(10);
    expect(start(fdc, { id: 'other', label: 'plans/main.txt', maxDepth: 3 })).toMatchObject({ machine: 'other', label: 'plans/main.txt', maxDepth: 3 });
  });

  test('call pushes the caller, the callee runs from its start, return resumes the caller where it was', () => {
    let s = run(start(fdc, { label: 'main.txt' }), [sym('plan_op'), sym('step_op')]);
    s = ok(step(s, machines, { type: 'call', machine: 'research', label: 'deep-research.txt' }));
    expect(s).toMatchObject({ machine: 'research', state: 'IDLE', label: 'deep-research.txt', stack: [{ machine: 'fdc', state: 'EXECUTING', label: 'main.txt' }] });
    expect(depth(s)).toBe(2);
    expect(callChain(s)).toEqual(['main.txt', 'deep-research.txt']);
    s = run(s, [sym('plan_op'), sym('read_op'), sym('close_op'), { type: 'return' }]);
    expect(s).toMatchObject({ machine: 'fdc', state: 'EXECUTING', label: 'main.txt', stack: [] });
    s = run(s, [sym('close_op'), sym('submit_op')]);
    expect(isAccepted(s, machines)).toBe(true);
    expect(s.history).toHaveLength(9);
  });

  test('return is only legal from an accept state; the snapshot is left unchanged', () => {
    const s = run(start(fdc), [sym('plan_op'), sym('step_op'), { type: 'call', machine: 'research' }, sym('plan_op')]);
    const r = step(s, machines, { type: 'return' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.snapshot).toBe(s);
    expect(r.error).toBeInstanceOf(RejectedEventError);
    expect(r.error).toMatchObject({ code: 'rejected-event', reason: 'not-accepting', machine: 'research', state: 'GATHERING', expected: ['read_op', 'close_op'] });
  });

  test('return at the root, an illegal symbol and an unknown symbol are rejections too', () => {
    const root = start(fdc);
    const results = [step(root, machines, { type: 'return' }), step(root, machines, sym('step_op')), step(root, machines, sym('dance'))];
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code === 'rejected-event' ? r.error.reason : r.error.code))).toEqual([
      'empty-stack',
      'no-transition',
      'unknown-symbol',
    ]);
    const noTransition = results[1]!;
    expect(!noTransition.ok && noTransition.error.message).toBe('no transition on "step_op" from state "IDLE" of machine "fdc"; legal: plan_op');
  });

  test('exceeding the depth limit returns a RecursionDepthError naming the whole chain, outermost first', () => {
    // A plan that calls itself: the default limit stops it at 10 frames.
    let s = start(research, { label: 'plans/a.txt' });
    for (let i = 1; i < 10; i++) s = ok(step(s, machines, { type: 'call', machine: 'research', label: `plans/a.txt#${i}` }));
    expect(depth(s)).toBe(10);
    const r = step(s, machines, { type: 'call', machine: 'research', label: 'plans/b.txt' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.snapshot).toBe(s);
    expect(r.error).toBeInstanceOf(RecursionDepthError);
    const e = r.error as RecursionDepthError;
    expect(e.code).toBe('recursion-depth');
    expect(e.maxDepth).toBe(10);
    expect(e.chain).toEqual(['plans/a.txt', ...Array.from({ length: 9 }, (_, i) => `plans/a.txt#${i + 1}`), 'plans/b.txt']);
    expect(e.message).toBe(`call depth limit of 10 exceeded: ${e.chain.join(' -> ')}`);
  });

  test('the depth limit is configurable; frames without labels are named by machine id', () => {
    let s = start(fdc, { maxDepth: 2 });
    s = ok(step(s, machines, { type: 'call', machine: 'research' }));
    const r = step(s, machines, { type: 'call', machine: 'fdc' });
    expect(!r.ok && r.error).toMatchObject({ code: 'recursion-depth', chain: ['fdc', 'research', 'fdc'], maxDepth: 2 });
    const one = step(start(fdc, { maxDepth: 1 }), machines, { type: 'call', machine: 'research' });
    expect(one.ok).toBe(false);
    expect(() => start(fdc, { maxDepth: 0 })).toThrow(InvalidArgumentError);
    expect(() => start(fdc, { maxDepth: 2.5 })).toThrow(InvalidArgumentError);
  });

  test('programming errors throw typed errors: unknown machine, malformed event, machine without id', () => {
    expect(() => step(start(fdc), machines, { type: 'call', machine: 'nope' })).toThrow(UnknownMachineError);
    expect(() => step(start(fdc), machines, { type: 'jump' } as unknown as RunEvent)).toThrow(InvalidArgumentError);
    expect(() => step(start(fdc), new Map(), sym('plan_op'))).toThrow(UnknownMachineError);
    const anonymous = load({ states: ['A'], alphabet: [], transitions: {}, start_state: 'A', accept_states: ['A'] });
    expect(() => start(anonymous)).toThrow(/no id/);
    // A record of machines is looked up by own property only.
    expect(() => step(start(fdc), machines, { type: 'call', machine: 'toString' })).toThrow(UnknownMachineError);
  });

  test('machines may be passed as a Map', () => {
    const map = new Map([
      ['fdc', fdc],
      ['research', research],
    ]);
    const s = run(start(fdc), [sym('plan_op'), { type: 'call', machine: 'research' }], map);
    expect(s.machine).toBe('research');
  });

  test('steps never mutate the snapshot they are given', () => {
    const s0 = start(fdc);
    const frozen = JSON.stringify(s0);
    run(s0, [sym('plan_op'), sym('step_op'), { type: 'call', machine: 'research', label: 'x' }]);
    expect(JSON.stringify(s0)).toBe(frozen);
  });
});

describe('snapshots', () => {
  const events: RunEvent[] = [
    sym('plan_op'),
    sym('step_op'),
    { type: 'call', machine: 'research', label: 'r1' },
    sym('plan_op'),
    sym('read_op'),
    { type: 'call', machine: 'research', label: 'r2' },
    sym('plan_op'),
    sym('close_op'),
    { type: 'return' },
    sym('close_op'),
    { type: 'return' },
    sym('write_op'),
    sym('close_op'),
    sym('submit_op'),
  ];

  test('JSON round trip at every point, then continuing, gives the same results as never snapshotting', () => {
    const straight: StepResult[] = [];
    let s = start(fdc, { label: 'main', maxDepth: 4 });
    for (const e of events) {
      const r = step(s, machines, e);
      straight.push(r);
      s = r.snapshot;
    }
    for (let cut = 0; cut <= events.length; cut++) {
      let t = start(fdc, { label: 'main', maxDepth: 4 });
      for (const e of events.slice(0, cut)) t = step(t, machines, e).snapshot;
      t = restore(JSON.parse(JSON.stringify(t)), machines);
      for (let i = cut; i < events.length; i++) {
        const r = step(t, machines, events[i]!);
        expect(r).toEqual(straight[i]);
        t = r.snapshot;
      }
      expect(JSON.stringify(t)).toBe(JSON.stringify(s));
    }
    expect(isAccepted(s, machines)).toBe(true);
  });

  test('a restored snapshot keeps its depth limit and call chain', () => {
    let s = start(fdc, { maxDepth: 2, label: 'main' });
    s = ok(step(s, machines, { type: 'call', machine: 'research', label: 'sub' }));
    const back = restore(JSON.parse(JSON.stringify(s)), machines);
    const r = step(back, machines, { type: 'call', machine: 'research', label: 'subsub' });
    expect(!r.ok && r.error).toMatchObject({ code: 'recursion-depth', chain: ['main', 'sub', 'subsub'] });
  });

  test('restore refuses a snapshot that does not fit, listing every problem with a pointer', () => {
    const bad = {
      schemaVersion: 2,
      machine: 'fdc',
      state: 'NOWHERE',
      stack: [{ machine: 'ghost', state: 'A' }, { machine: 'research', state: 'IDLE', extra: 1 }, 'x'],
      history: [{ type: 'symbol' }, { type: 'return' }],
      maxDepth: 2,
      colour: 'red',
    };
    try {
      restore(bad, machines);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidSnapshotError);
      expect((e as InvalidSnapshotError).problems.map((p) => p.pointer)).toEqual([
        '/colour',
        '/schemaVersion',
        '/state',
        '/stack/0/machine',
        '/stack/1/extra',
        '/stack/2',
        '/stack',
        '/history/0',
      ]);
    }
    expect(() => restore(null, machines)).toThrow(InvalidSnapshotError);
    expect(() => restore({ ...start(fdc), maxDepth: 0 }, machines)).toThrow(/maxDepth/);
  });

  test('restore returns a fresh copy: mutating the input afterwards changes nothing', () => {
    const raw = JSON.parse(JSON.stringify(run(start(fdc), [sym('plan_op'), { type: 'call', machine: 'research', label: 'l' }]))) as RunSnapshot;
    const restored = restore(raw, machines);
    raw.stack[0]!.state = 'DONE';
    raw.history.length = 0;
    expect(restored.stack[0]!.state).toBe('PLANNING');
    expect(restored.history).toHaveLength(2);
  });
});
