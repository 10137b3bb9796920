import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addFailure, checkMemoryData, EDGE_TYPES, link, queryMemory, related } from '../src/index.js';
import { emptyMemory, failure, NOW } from './support.js';

const word = fc.stringMatching(/^[a-z]{3,9}$/);
const trigger = fc.array(word, { minLength: 3, maxLength: 8 }).map((ws) => ws.join(' '));

describe('properties', () => {
  test('whatever sequence of adds: names stay unique, the data stays valid, caps hold, and re-adding merges', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ trigger, cost: fc.integer({ min: 0, max: 10_000 }), name: fc.option(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { nil: undefined }) }), { maxLength: 25 }), (inputs) => {
        const data = emptyMemory();
        for (const input of inputs) {
          const r = addFailure(data, { ...input, fix: 'a fix' }, { now: NOW, maxFailures: 10 });
          if (input.cost < 100) expect(r.status).toBe('refused');
          if (r.status !== 'refused') {
            // The same trigger again never creates a second entry.
            const again = addFailure(data, { ...input, fix: 'other' }, { now: NOW, maxFailures: 10 });
            expect(again.status === 'merged' || (again.status === 'added' && r.evicted.includes(r.name))).toBe(true);
          }
        }
        expect(checkMemoryData(data)).toEqual([]);
        expect(data.failures.length).toBeLessThanOrEqual(10);
        const names = data.failures.map((f) => f.name);
        expect(new Set(names).size).toBe(names.length);
      }),
      { numRuns: 150 },
    );
  });

  test('related: every result clears the weight floor, is not the start, and its path multiplies to its weight', () => {
    const edge = fc.record({ from: fc.nat(7), to: fc.nat(7), type: fc.constantFrom(...EDGE_TYPES) });
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 20 }), fc.nat(7), fc.double({ min: 0.1, max: 2, noNaN: true }), (edges, start, minWeight) => {
        const data = emptyMemory();
        for (let i = 0; i < 8; i++) data.failures.push(failure(`n${i}`, `node ${i} trigger text`));
        for (const e of edges) if (e.from !== e.to) link(data, `n${e.from}`, `n${e.to}`, e.type);
        for (const r of related(data, `n${start}`, { minWeight, maxDepth: 4 })) {
          expect(r.name).not.toBe(`n${start}`);
          expect(r.weight).toBeGreaterThanOrEqual(minWeight);
          expect(r.path.reduce((a, s) => a * s.weight, 1)).toBeCloseTo(r.weight, 10);
          expect(r.path).toHaveLength(r.depth);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('query: results are sorted by score, above the threshold, within the limits, and deterministic', () => {
    fc.assert(
      fc.property(fc.array(trigger, { minLength: 1, maxLength: 30 }), trigger, (triggers, topic) => {
        const data = emptyMemory();
        triggers.forEach((t, i) => data.failures.push(failure(`f${i}`, t, { cost: 100 + i * 37, times_failed: i % 3 })));
        const r = queryMemory(data, topic, { now: NOW });
        expect(r.failures.length).toBeLessThanOrEqual(5);
        for (let i = 1; i < r.failures.length; i++) expect(r.failures[i - 1]!.score).toBeGreaterThanOrEqual(r.failures[i]!.score);
        for (const h of r.failures) expect(h.relevance).toBeGreaterThanOrEqual(0.25);
        expect(queryMemory(data, topic, { now: NOW })).toEqual(r);
      }),
      { numRuns: 150 },
    );
  });
});
