import { describe, expect, test } from 'vitest';
import { check, compile, FSM_DEFINITION_SCHEMA_URL, InvalidDefinitionError, loadDefinition, normalize, toDefinition, type Definition } from '../src/index.js';
import { fdcList, fdcMap, load, readRepoJson } from './fixtures.js';

describe('normalize', () => {
  test('map style and list style of one machine normalise to the same model', () => {
    const fromMap = normalize(fdcMap());
    const fromList = normalize(fdcList());
    expect(fromList).toEqual(fromMap);
    expect(fromMap.start).toBe('IDLE');
    expect(fromMap.accept).toEqual(['DONE']);
    // Canonical order: by source state, then by alphabet position.
    expect(fromMap.transitions.slice(0, 3)).toEqual([
      { from: 'IDLE', symbol: 'plan_op', to: 'PLANNING' },
      { from: 'PLANNING', symbol: 'step_op', to: 'EXECUTING' },
      { from: 'EXECUTING', symbol: 'step_op', to: 'EXECUTING' },
    ]);
    expect(fromMap.transitions.at(-1)).toEqual({ from: 'POST_MORTEM', symbol: 'submit_op', to: 'DONE' });
  });

  test('the two shapes compile to machines that behave identically', () => {
    const a = load(fdcMap());
    const b = load(fdcList());
    expect(b.states).toEqual(a.states);
    expect(b.alphabet).toEqual(a.alphabet);
    expect(Array.from(b.table!)).toEqual(Array.from(a.table!));
  });

  test('list style without alphabet derives it from the triggers, in order of first use', () => {
    const doc = fdcList();
    delete doc.alphabet;
    const def = normalize(doc);
    expect(def.alphabet).toEqual(['submit_op', 'close_op', 'step_op', 'read_op', 'write_op', 'delete_op', 'move_op', 'tool_exec', 'plan_op']);
    expect(check(doc)).toEqual([]);
  });

  test('states may be objects with descriptions; optional top-level fields are kept', () => {
    const def = normalize({
      $schema: './x.json',
      schemaVersion: 1,
      id: 'm',
      description: 'a machine',
      states: [{ name: 'A', description: 'first' }, 'B'],
      alphabet: ['x'],
      transitions: { A: { x: 'B' } },
      start_state: 'A',
      accept_states: ['B'],
    });
    expect(def).toEqual({
      id: 'm',
      description: 'a machine',
      states: [{ name: 'A', description: 'first' }, { name: 'B' }],
      alphabet: ['x'],
      start: 'A',
      accept: ['B'],
      transitions: [{ from: 'A', symbol: 'x', to: 'B' }],
    });
  });

  test('exact duplicates collapse; conflicts are kept for check/compile to refuse', () => {
    const def = normalize({
      states: ['A', 'B', 'C'],
      initial_state: 'A',
      final_states: ['B', 'B'],
      transitions: [
        { source: 'A', dest: 'B', trigger: 'x' },
        { source: 'A', dest: 'B', trigger: 'x' },
        { source: 'A', dest: 'C', trigger: 'x' },
      ],
    });
    expect(def.accept).toEqual(['B']);
    expect(def.transitions).toEqual([
      { from: 'A', symbol: 'x', to: 'B' },
      { from: 'A', symbol: 'x', to: 'C' },
    ]);
    expect(() => compile(def)).toThrow(InvalidDefinitionError);
  });

  test('a structurally invalid document throws InvalidDefinitionError carrying every diagnostic', () => {
    let error: unknown;
    try {
      normalize({ states: 'A', alphabet: [], transitions: {}, start_state: 1, accept_states: [] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidDefinitionError);
    const e = error as InvalidDefinitionError;
    expect(e.code).toBe('invalid-definition');
    expect(e.diagnostics.map((d) => d.pointer)).toEqual(['/states', '/start_state']);
    expect(e.message).toContain('/states');
  });
});

describe('compile and toDefinition', () => {
  test('compile refuses a definition with errors, listing them all with pointers into it', () => {
    const def: Definition = {
      states: [{ name: 'A' }],
      alphabet: ['x'],
      start: 'Z',
      accept: [],
      transitions: [{ from: 'A', symbol: 'y', to: 'Q' }],
    };
    try {
      compile(def);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidDefinitionError);
      const got = (e as InvalidDefinitionError).diagnostics.map((d) => [d.ruleId, d.pointer]);
      expect(got).toEqual([
        ['unused-symbol', '/alphabet/0'],
        ['missing-start-state', '/start'],
        ['no-accept-states', '/accept'],
        ['unknown-symbol', '/transitions/0/symbol'],
        ['undefined-state', '/transitions/0/to'],
      ]);
    }
  });

  test('compile checks the shape of a code-built Definition too', () => {
    expect(() => compile({ states: 'A' } as unknown as Definition)).toThrow(/states must be an array/);
  });

  test('toDefinition gives canonical map-style JSON that loads back to the same machine', () => {
    const machine = load(fdcList());
    const doc = toDefinition(machine);
    expect(Object.keys(doc)).toEqual(['$schema', 'schemaVersion', 'id', 'states', 'alphabet', 'transitions', 'start_state', 'accept_states']);
    expect(doc.$schema).toBe(FSM_DEFINITION_SCHEMA_URL);
    expect(doc.transitions.EXECUTING).toEqual({
      step_op: 'EXECUTING',
      read_op: 'EXECUTING',
      write_op: 'EXECUTING',
      delete_op: 'EXECUTING',
      move_op: 'EXECUTING',
      tool_exec: 'EXECUTING',
      close_op: 'POST_MORTEM',
    });
    const again = loadDefinition(JSON.parse(JSON.stringify(doc)));
    expect(again.diagnostics).toEqual([]);
    expect(again.definition).toEqual(normalize(fdcMap()));
  });

  test('the shipped protocol machines load cleanly', () => {
    for (const name of ['fdc', 'orchestrator', 'research']) {
      const result = loadDefinition(readRepoJson(`protocols/${name}.fsm.json`));
      expect(result.diagnostics, name).toEqual([]);
      expect(result.machine?.id).toBe(name);
    }
  });
});
