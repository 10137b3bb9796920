import { describe, expect, test } from 'vitest';
import {
  accepts,
  compile,
  isAcceptState,
  nextSymbols,
  normalize,
  reachableStates,
  shortestPath,
  transition,
  triggerBetween,
  UnknownStateError,
  type Machine,
} from '../src/index.js';
import { fdcMap, load, readRepoJson } from './fixtures.js';

const fdc = load(fdcMap());

describe('transition and nextSymbols', () => {
  test('steps by name; undefined for no transition or a symbol outside the alphabet', () => {
    expect(transition(fdc, 'IDLE', 'plan_op')).toBe('PLANNING');
    expect(transition(fdc, 'EXECUTING', 'write_op')).toBe('EXECUTING');
    expect(transition(fdc, 'EXECUTING', 'close_op')).toBe('POST_MORTEM');
    expect(transition(fdc, 'IDLE', 'step_op')).toBeUndefined();
    expect(transition(fdc, 'IDLE', 'frobnicate')).toBeUndefined();
    expect(transition(fdc, 'IDLE', '__proto__')).toBeUndefined();
  });

  test('an unknown state is a programming error: UnknownStateError with a code', () => {
    expect(() => transition(fdc, 'NOPE', 'plan_op')).toThrow(UnknownStateError);
    try {
      nextSymbols(fdc, 'constructor');
    } catch (e) {
      expect(e).toMatchObject({ code: 'unknown-state', state: 'constructor', machine: 'fdc' });
    }
  });

  test('nextSymbols lists legal symbols in alphabet order', () => {
    expect(nextSymbols(fdc, 'EXECUTING')).toEqual(['step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec', 'close_op']);
    expect(nextSymbols(fdc, 'DONE')).toEqual([]);
    expect(isAcceptState(fdc, 'DONE')).toBe(true);
    expect(isAcceptState(fdc, 'IDLE')).toBe(false);
  });
});

describe('accepts', () => {
  test('a word of the language is accepted, with the final state and the step count', () => {
    expect(accepts(fdc, ['plan_op', 'step_op', 'read_op', 'write_op', 'close_op', 'submit_op'])).toEqual({ accepted: true, state: 'DONE', steps: 6 });
  });

  test('no transition: position of the symbol, the state, and what was legal there', () => {
    expect(accepts(fdc, ['plan_op', 'write_op', 'close_op'])).toEqual({
      accepted: false,
      reason: 'no-transition',
      position: 1,
      state: 'PLANNING',
      symbol: 'write_op',
      expected: ['step_op'],
    });
  });

  test('unknown symbol: reported as such, not as a missing transition', () => {
    expect(accepts(fdc, ['plan_op', 'step_op', 'dance'])).toEqual({
      accepted: false,
      reason: 'unknown-symbol',
      position: 2,
      state: 'EXECUTING',
      symbol: 'dance',
      expected: ['step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec', 'close_op'],
    });
  });

  test('input ending outside an accept state: not-accepting, position = symbols read, expected = how to go on', () => {
    expect(accepts(fdc, ['plan_op', 'step_op', 'close_op'])).toEqual({
      accepted: false,
      reason: 'not-accepting',
      position: 3,
      state: 'POST_MORTEM',
      expected: ['submit_op'],
    });
    expect(accepts(fdc, [])).toMatchObject({ accepted: false, reason: 'not-accepting', position: 0, state: 'IDLE', expected: ['plan_op'] });
  });

  test('takes any iterable, including a lazy generator', () => {
    function* word(): Generator<string> {
      yield 'plan_op';
      yield 'step_op';
      for (let i = 0; i < 1000; i++) yield 'tool_exec';
      yield 'close_op';
      yield 'submit_op';
    }
    expect(accepts(fdc, word())).toEqual({ accepted: true, state: 'DONE', steps: 1004 });
    expect(accepts(fdc, new Set(['plan_op', 'step_op']))).toMatchObject({ reason: 'not-accepting' });
  });
});

describe('graph queries', () => {
  const orchestrator = load(readRepoJson('protocols/orchestrator.fsm.json'));

  test('triggerBetween finds the orchestrator trigger between two lifecycle states', () => {
    expect(triggerBetween(orchestrator, 'START', 'ORIENTING')).toEqual(['begin_task']);
    expect(triggerBetween(orchestrator, 'ERROR', 'ORIENTING')).toEqual(['reorient']);
    expect(triggerBetween(orchestrator, 'START', 'DONE')).toEqual([]);
    expect(triggerBetween(fdc, 'EXECUTING', 'EXECUTING')).toEqual(['step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec']);
  });

  test('reachableStates, from the start or any state, in declaration order', () => {
    const m = load({
      states: ['A', 'B', 'C', 'D'],
      alphabet: ['x'],
      transitions: { A: { x: 'B' }, C: { x: 'A' }, D: { x: 'D' } },
      start_state: 'A',
      accept_states: ['B'],
    });
    expect(reachableStates(m)).toEqual(['A', 'B']);
    expect(reachableStates(m, 'C')).toEqual(['A', 'B', 'C']);
    expect(reachableStates(m, 'D')).toEqual(['D']);
  });

  test('shortestPath: BFS, deterministic, [] to itself, null when unreachable', () => {
    expect(shortestPath(fdc, 'IDLE', 'DONE')).toEqual(['plan_op', 'step_op', 'close_op', 'submit_op']);
    expect(shortestPath(fdc, 'EXECUTING', 'EXECUTING')).toEqual([]);
    expect(shortestPath(fdc, 'DONE', 'IDLE')).toBeNull();
    // A failed task can be abandoned into its post-mortem (abandon_task): shorter than reorienting.
    expect(shortestPath(orchestrator, 'ERROR', 'DONE')).toEqual(['abandon_task', 'post_mortem_complete', 'lessons_applied', 'submit']);
    // A task still planning can be abandoned too (with a failure post-mortem): the shortest way to DONE.
    expect(shortestPath(orchestrator, 'PLANNING', 'DONE')).toEqual(['abandon_task', 'post_mortem_complete', 'lessons_applied', 'submit']);
    expect(shortestPath(orchestrator, 'EXECUTING', 'DONE')).toEqual(['plan_complete', 'analysis_complete', 'post_mortem_complete', 'lessons_applied', 'submit']);
  });

  test('among equally short paths, the one whose symbols come first in the alphabet', () => {
    const m = load({
      states: ['S', 'L', 'R', 'T'],
      alphabet: ['a', 'b'],
      transitions: { S: { b: 'L', a: 'R' }, L: { a: 'T' }, R: { b: 'T' } },
      start_state: 'S',
      accept_states: ['T'],
    });
    expect(shortestPath(m, 'S', 'T')).toEqual(['a', 'b']);
  });
});

describe('sparse transition lookup (machines too big for a dense table)', () => {
  test('a machine compiled without a dense table behaves exactly like the dense one', () => {
    const def = normalize(fdcMap());
    const dense = compile(def);
    const sparse: Machine = compile(def, { maxTableCells: 0 });
    expect(dense.table).toBeDefined();
    expect(sparse.table).toBeUndefined();
    for (const state of dense.states) {
      for (const symbol of [...dense.alphabet, 'nope']) expect(transition(sparse, state, symbol)).toBe(transition(dense, state, symbol));
    }
    const words = [['plan_op', 'step_op', 'close_op', 'submit_op'], ['plan_op', 'write_op'], ['plan_op', 'step_op', 'nope'], ['plan_op']];
    for (const w of words) expect(accepts(sparse, w)).toEqual(accepts(dense, w));
  });
});
