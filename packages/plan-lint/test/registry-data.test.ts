import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { planRegistryValidator } from '../src/registry-data.js';
import { PlanRegistryDataSchema } from '../src/schema.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('the registry validator (zod-free) agrees with PlanRegistryDataSchema', () => {
  // Mostly near-valid registries: names that almost match, paths that are almost strings.
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,6}$/) },
    { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constantFrom('constructor', 'prototype', 'Upper', '-x', '', 'a b', 'constructors') },
  );
  const path = fc.oneof({ weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom('', 3, null, [], {}) });
  const plans = fc.oneof({ weight: 10, arbitrary: fc.dictionary(name, path, { maxKeys: 4 }) }, { weight: 1, arbitrary: fc.constantFrom(null, [], 'x', 1) });
  const value = fc.oneof(
    { weight: 10, arbitrary: plans.map((p) => ({ plans: p })) },
    { weight: 1, arbitrary: plans.map((p) => ({ plans: p, extra: 1 })) },
    { weight: 1, arbitrary: fc.constantFrom(null, [], {}, 'x', { plan: {} }) },
  );

  test('same verdict, same data', () => {
    fc.assert(
      fc.property(value, (v) => {
        const mine = planRegistryValidator.safeParse(v);
        const theirs = PlanRegistryDataSchema.safeParse(v);
        expect(mine.success).toBe(theirs.success);
        if (mine.success && theirs.success) expect(mine.data).toEqual(theirs.data);
      }),
      { numRuns: 3000 },
    );
  });

  test('issues name the entry', () => {
    const r = planRegistryValidator.safeParse({ plans: { Bad: 'x', ok: '' }, more: 1 });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues.map((i) => i.path)).toEqual([['more'], ['plans', 'Bad'], ['plans', 'ok']]);
  });

  test('@ratchet/plan-lint/registry does not load zod (plan lint and run done read the registry on every call)', () => {
    const graph = importGraph(join(src, 'registry.ts'));
    expect([...graph.staticImports].filter((s) => !s.startsWith('node:'))).toEqual(['@ratchet/store']);
    expect([...graph.lazyImports]).toEqual([]);
  });
});
