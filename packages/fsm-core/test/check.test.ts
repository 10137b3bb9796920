import { describe, expect, test } from 'vitest';
import { check, compile, InvalidDefinitionError, loadDefinition, RULES, type Diagnostic } from '../src/index.js';
import { fdcList, fdcMap, readRepoJson } from './fixtures.js';

const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.severity} ${d.ruleId} ${d.pointer}`);

describe('check: every rule, with its pointer, all problems at once', () => {
  test('a clean machine has no diagnostics, in either shape', () => {
    expect(check(fdcMap())).toEqual([]);
    expect(check(fdcList())).toEqual([]);
  });

  test('map style: every problem is reported in one call, in document order', () => {
    const doc = {
      states: ['IDLE', 'WORK', 'ORPHAN', 'DONE', 'WORK', 'SINK'],
      alphabet: ['go', 'work', 'finish', 'never', 'go'],
      transitions: {
        IDLE: { go: 'WORK' },
        WORK: { work: 'WORK', finish: 'DONE', escape: 'NOWHERE', go: 'SINK' },
        GHOST: { go: 'DONE' },
      },
      start_state: 'IDLE',
      accept_states: ['DONE', 'MISSING'],
    };
    expect(summary(check(doc))).toEqual([
      'warning unreachable-state /states/2',
      'warning dead-state /states/2',
      'warning duplicate-declaration /states/4',
      'warning dead-state /states/5',
      'warning unused-symbol /alphabet/3',
      'warning duplicate-declaration /alphabet/4',
      'error undefined-state /transitions/WORK/escape',
      'error unknown-symbol /transitions/WORK/escape',
      'error undefined-state /transitions/GHOST',
      'error undefined-state /accept_states/1',
    ]);
    const escape = check(doc).find((d) => d.ruleId === 'undefined-state')!;
    expect(escape.message).toContain('NOWHERE');
    expect(check(doc)).toEqual(check(structuredClone(doc)));
  });

  test('missing-start-state and no-accept-states', () => {
    const doc = { ...fdcMap(), start_state: 'NOPE', accept_states: [] };
    const ds = check(doc);
    expect(summary(ds).filter((s) => s.startsWith('error'))).toEqual(['error missing-start-state /start_state', 'error no-accept-states /accept_states']);
    expect(ds[0]!.message).toContain('"NOPE"');
  });

  test('list style: conflicting and duplicate transitions, undefined source, unknown trigger', () => {
    const doc = {
      states: ['A', 'B', 'C'],
      alphabet: ['x', 'y'],
      initial_state: 'A',
      final_states: ['C'],
      transitions: [
        { source: 'A', dest: 'B', trigger: 'x' },
        { source: 'B', dest: 'C', trigger: 'y' },
        { source: 'A', dest: 'C', trigger: 'x' },
        { source: 'B', dest: 'C', trigger: 'y' },
        { source: 'Q', dest: 'A', trigger: 'z' },
      ],
    };
    const ds = check(doc);
    expect(summary(ds)).toEqual([
      'error conflicting-transition /transitions/2',
      'warning duplicate-transition /transitions/3',
      'error undefined-state /transitions/4/source',
      'error unknown-symbol /transitions/4/trigger',
    ]);
    expect(ds[0]!.message).toBe('state "A" on "x" goes to "C" here but to "B" at /transitions/0');
    expect(ds[1]!.message).toContain('first at /transitions/1');
    expect(loadDefinition(doc).machine).toBeUndefined();
  });

  test('warnings alone still give a machine; errors never do', () => {
    const warnOnly = { ...fdcMap(), alphabet: [...(fdcMap().alphabet as string[]), 'spare'] };
    const result = loadDefinition(warnOnly);
    expect(summary(result.diagnostics)).toEqual(['warning unused-symbol /alphabet/9']);
    expect(result.machine).toBeDefined();
  });

  test('pointers escape "/" and "~" in names (RFC 6901)', () => {
    const doc = { states: ['a/b'], alphabet: ['x~y'], transitions: { 'a/b': { 'x~y': 'NOPE' } }, start_state: 'a/b', accept_states: ['a/b'] };
    expect(summary(check(doc))).toEqual(['error undefined-state /transitions/a~1b/x~0y']);
  });

  test('the broken example the CLI documents: undefined-state at /transitions/WORKING/escape', () => {
    const ds = check(readRepoJson('examples/fsm/broken.fsm.json'));
    expect(ds.map((d) => d.ruleId)).toEqual(expect.arrayContaining(['undefined-state', 'unknown-symbol', 'unreachable-state', 'unused-symbol']));
    expect(ds.find((d) => d.ruleId === 'undefined-state')!.pointer).toBe('/transitions/WORKING/escape');
  });

  test('every diagnostic carries the severity its rule declares', () => {
    const ds = [...check({ states: ['A', 'A'], alphabet: ['x', 'x'], transitions: { A: { y: 'B' } }, start_state: 'C', accept_states: [] })];
    expect(ds.length).toBeGreaterThan(4);
    for (const d of ds) expect(d.severity).toBe(RULES[d.ruleId].severity);
  });
});

describe('check: structural problems (rule "schema")', () => {
  test.each([{ doc: null }, { doc: 42 }, { doc: 'fsm' }, { doc: true }, { doc: [] }, { doc: [fdcMap()] }])('a non-object document ($doc) is one diagnostic at the root', ({ doc }) => {
    const ds = check(doc);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ ruleId: 'schema', severity: 'error', pointer: '' });
    expect(ds[0]!.message).toMatch(/^expected object, got (null|integer|string|boolean|array)$/);
  });

  test('wrong types are reported where they are, all of them, with the type found', () => {
    const doc = {
      states: ['A', 5, { name: 3 }, { description: 'no name' }],
      alphabet: 'x',
      transitions: { A: { a: 1 }, B: [] },
      start_state: ['A'],
      accept_states: [true],
      schemaVersion: 2,
      colour: 'red',
    };
    const ds = check(doc);
    expect(ds.map((d) => [d.pointer, d.message])).toEqual([
      ['/states/1', 'expected string or object, got integer'],
      ['/states/2/name', 'expected string, got integer'],
      ['/states/3', 'missing required property "name"'],
      ['/alphabet', 'expected array, got string'],
      ['/transitions/A/a', 'expected string, got integer'],
      ['/transitions/B', 'expected object, got array'],
      ['/start_state', 'expected string, got array'],
      ['/accept_states/0', 'expected string, got boolean'],
      ['/schemaVersion', 'must be 1'],
      ['/colour', 'unknown property "colour"'],
    ]);
    expect(ds.every((d) => d.ruleId === 'schema')).toBe(true);
  });

  test('missing properties are named, and mixing the two shapes gets a hint', () => {
    const ds = check({ states: ['A'], transitions: [], start_state: 'A', final_states: ['A'] });
    expect(ds.map((d) => [d.pointer, d.message])).toEqual([
      ['', 'missing required property "initial_state" (list-style definition)'],
      ['/start_state', 'unknown property "start_state" (list-style definitions use "initial_state")'],
    ]);
  });

  test('empty names are refused', () => {
    const ds = check({ ...fdcMap(), alphabet: ['', 'plan_op'] });
    expect(ds[0]).toMatchObject({ ruleId: 'schema', pointer: '/alphabet/0', message: 'must not be empty' });
  });

  test('semantic rules still run next to schema errors; graph rules wait for a valid structure', () => {
    const doc = { ...fdcMap(), states: [...(fdcMap().states as string[]), 'ORPHAN'], accept_states: ['DONE', 'NOPE'], colour: 'red' };
    const rules = check(doc).map((d) => d.ruleId);
    expect(rules).toContain('undefined-state');
    expect(rules).toContain('schema');
    // ORPHAN is unreachable, but with the document half-read that could be a false positive.
    expect(rules).not.toContain('unreachable-state');
  });
});

describe('check: hostile and extreme input', () => {
  test('__proto__ / constructor / prototype are refused wherever they name something, and pollute nothing', () => {
    const doc = JSON.parse(
      '{"id":"prototype","states":["__proto__","A"],"alphabet":["constructor","x"],' +
        '"transitions":{"__proto__":{"x":"A"},"A":{"constructor":"__proto__","x":"A"}},"start_state":"A","accept_states":["A"]}',
    ) as unknown;
    const ds = check(doc);
    expect(summary(ds.filter((d) => d.ruleId === 'reserved-name'))).toEqual([
      'error reserved-name /id',
      'error reserved-name /states/0',
      'error reserved-name /alphabet/0',
      'error reserved-name /transitions/__proto__',
      'error reserved-name /transitions/A/constructor',
    ]);
    expect(loadDefinition(doc).machine).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test('the CLI case: a __proto__ row key is reported at its place', () => {
    const doc = JSON.parse('{"states":["A"],"start_state":"A","accept_states":["A"],"transitions":{"__proto__":{"x":"A"}}}') as unknown;
    const ds = check(doc);
    expect(ds.find((d) => d.ruleId === 'reserved-name')).toMatchObject({ pointer: '/transitions/__proto__', severity: 'error' });
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  test('an own __proto__ or constructor key at the top level is just an unknown property', () => {
    const doc = JSON.parse(`{"__proto__": {"polluted": true}, "constructor": 1, ${JSON.stringify(fdcMap()).slice(1)}`) as unknown;
    expect(check(doc).map((d) => [d.pointer, d.message])).toEqual([
      ['/__proto__', 'unknown property "__proto__"'],
      ['/constructor', 'unknown property "constructor"'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('compile refuses reserved names in a code-built Definition', () => {
    expect(() =>
      compile({ states: [{ name: 'constructor' }], alphabet: ['x'], start: 'constructor', accept: ['constructor'], transitions: [{ from: 'constructor', symbol: 'x', to: 'constructor' }] }),
    ).toThrow(InvalidDefinitionError);
  });

  test('empty states: the start state is missing, and everything that names a state is undefined', () => {
    const ds = check({ states: [], alphabet: ['x'], transitions: { A: { x: 'A' } }, start_state: 'A', accept_states: ['A'] });
    expect(summary(ds)).toEqual([
      'error undefined-state /transitions/A',
      'error undefined-state /transitions/A/x',
      'error missing-start-state /start_state',
      'error undefined-state /accept_states/0',
    ]);
    expect(ds.find((d) => d.ruleId === 'missing-start-state')!.message).toContain('no states are declared');
  });

  test('a huge alphabet is checked and compiled without trouble', () => {
    const alphabet = Array.from({ length: 50_000 }, (_, i) => `sym_${i}`);
    const doc = { states: ['A', 'B'], alphabet, transitions: { A: { sym_0: 'B' }, B: { sym_49999: 'A' } }, start_state: 'A', accept_states: ['B'] };
    const result = loadDefinition(doc);
    expect(result.diagnostics).toHaveLength(49_998);
    expect(result.diagnostics.every((d) => d.ruleId === 'unused-symbol')).toBe(true);
    expect(result.diagnostics[0]!.pointer).toBe('/alphabet/1');
    expect(result.machine!.alphabet).toHaveLength(50_000);
  });
});
