// Property tests: on random machines and words, the compiled machine agrees with a naive reference
// simulation written directly over the definition (array searches, no tables, no ids).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { accepts, compile, loadDefinition, normalize, reachableStates, shortestPath, type AcceptResult, type Machine } from '../src/index.js';

interface Spec {
  states: string[];
  alphabet: string[];
  edges: { from: string; symbol: string; to: string }[];
  start: string;
  accept: string[];
}

const specArb: fc.Arbitrary<Spec> = fc
  .record({ n: fc.integer({ min: 1, max: 6 }), k: fc.integer({ min: 1, max: 4 }) })
  .chain(({ n, k }) => {
    const states = Array.from({ length: n }, (_, i) => `q${i}`);
    const alphabet = Array.from({ length: k }, (_, i) => String.fromCharCode(97 + i));
    return fc
      .record({
        targets: fc.array(fc.option(fc.integer({ min: 0, max: n - 1 }), { nil: undefined }), { minLength: n * k, maxLength: n * k }),
        start: fc.integer({ min: 0, max: n - 1 }),
        accepting: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      })
      .map(({ targets, start, accepting }) => {
        const edges: Spec['edges'] = [];
        targets.forEach((t, i) => {
          if (t !== undefined) edges.push({ from: states[Math.floor(i / k)]!, symbol: alphabet[i % k]!, to: states[t]! });
        });
        const accept = states.filter((_, i) => accepting[i]);
        return { states, alphabet, edges, start: states[start]!, accept: accept.length > 0 ? accept : [states[n - 1]!] };
      });
  });

function toDocument(spec: Spec, style: 'map' | 'list'): unknown {
  if (style === 'list') {
    return {
      states: spec.states,
      initial_state: spec.start,
      final_states: spec.accept,
      alphabet: spec.alphabet,
      transitions: spec.edges.map((e) => ({ source: e.from, dest: e.to, trigger: e.symbol })),
    };
  }
  const rows: Record<string, Record<string, string>> = {};
  for (const e of spec.edges) (rows[e.from] ??= {})[e.symbol] = e.to;
  return { states: spec.states, alphabet: spec.alphabet, transitions: rows, start_state: spec.start, accept_states: spec.accept };
}

/** The obviously-correct version: search the edge list at every step. */
function reference(spec: Spec, word: readonly string[]): AcceptResult {
  const legal = (state: string) => spec.alphabet.filter((a) => spec.edges.some((e) => e.from === state && e.symbol === a));
  let state = spec.start;
  for (let i = 0; i < word.length; i++) {
    const symbol = word[i]!;
    if (!spec.alphabet.includes(symbol)) return { accepted: false, reason: 'unknown-symbol', position: i, state, symbol, expected: legal(state) };
    const edge = spec.edges.find((e) => e.from === state && e.symbol === symbol);
    if (!edge) return { accepted: false, reason: 'no-transition', position: i, state, symbol, expected: legal(state) };
    state = edge.to;
  }
  if (!spec.accept.includes(state)) return { accepted: false, reason: 'not-accepting', position: word.length, state, expected: legal(state) };
  return { accepted: true, state, steps: word.length };
}

function distances(spec: Spec, from: string): Map<string, number> {
  const dist = new Map([[from, 0]]);
  const queue = [from];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const e of spec.edges) {
      if (e.from === s && !dist.has(e.to)) {
        dist.set(e.to, dist.get(s)! + 1);
        queue.push(e.to);
      }
    }
  }
  return dist;
}

const caseArb = specArb.chain((spec) =>
  fc.record({
    spec: fc.constant(spec),
    style: fc.constantFrom('map' as const, 'list' as const),
    dense: fc.boolean(),
    words: fc.array(fc.array(fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...spec.alphabet) }, { weight: 1, arbitrary: fc.constant('zz') }), { maxLength: 24 }), {
      minLength: 1,
      maxLength: 8,
    }),
    from: fc.constantFrom(...spec.states),
    to: fc.constantFrom(...spec.states),
  }),
);

function machineFor(spec: Spec, style: 'map' | 'list', dense: boolean): Machine {
  const doc = toDocument(spec, style);
  const loaded = loadDefinition(doc);
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return dense ? loaded.machine! : compile(normalize(doc), { maxTableCells: 0 });
}

describe('properties', () => {
  test('accepts() agrees with the reference simulation, result for result', () => {
    fc.assert(
      fc.property(caseArb, ({ spec, style, dense, words }) => {
        const machine = machineFor(spec, style, dense);
        for (const word of words) expect(accepts(machine, word)).toEqual(reference(spec, word));
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });

  test('reachableStates and shortestPath agree with a reference BFS; paths really lead there', () => {
    fc.assert(
      fc.property(caseArb, ({ spec, style, dense, from, to }) => {
        const machine = machineFor(spec, style, dense);
        const dist = distances(spec, from);
        expect(reachableStates(machine, from)).toEqual(spec.states.filter((s) => dist.has(s)));
        const path = shortestPath(machine, from, to);
        if (!dist.has(to)) {
          expect(path).toBeNull();
          return;
        }
        expect(path).toHaveLength(dist.get(to)!);
        let state = from;
        for (const symbol of path!) state = spec.edges.find((e) => e.from === state && e.symbol === symbol)!.to;
        expect(state).toBe(to);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
