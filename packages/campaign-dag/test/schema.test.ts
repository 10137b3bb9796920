import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { importGraph, packageImports } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { campaignValidator, checkPlan, type Campaign } from '../src/index.js';
import { ArchiveSchema, CampaignSchema, PlanSchema } from '../src/schema.js';
import { randomDag } from './support/fixtures.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

const campaign = (): Campaign => ({
  id: 'c1',
  objective: 'o',
  framework: null,
  idioms: { required: [], forbidden: [] },
  createdAt: '2030-01-01T00:00:00.000Z',
  status: 'active',
  tasks: randomDag(5, 6, 3).map((t, i) => (i === 1 ? { ...t, status: 'blocked', blockedBy: [1], rootCause: 1, cascade: true, reason: 'r', runner: 'x', budget: 2, preflight: ['p'], description: 'd', updatedAt: 't' } : t)),
});

describe('schemas', () => {
  test('schemas/*.schema.json are up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/campaign-dag generate\``).toBe(text);
  });

  test('property: the hot-path campaign validator accepts exactly what the zod schema accepts', () => {
    const mutations: ((c: Record<string, unknown>, t: Record<string, unknown>) => void)[] = [
      () => undefined,
      (c) => delete c.id,
      (c) => (c.framework = 3),
      (c) => (c.status = 'paused'),
      (c) => (c.extra = 1),
      (c) => (c.idioms = { required: [] }),
      (_, t) => (t.seq = -1),
      (_, t) => (t.seq = 1.5),
      (_, t) => (t.status = 'done'),
      (_, t) => (t.type = 'DEPLOY'),
      (_, t) => (t.depends = ['1']),
      (_, t) => (t.delta = 'a'),
      (_, t) => (t.cascade = 'yes'),
      (_, t) => (t.budget = -3),
      (_, t) => (t.surprise = true),
      (_, t) => delete t.verify,
      (_, t) => (t.slug = ''),
      (_, t) => (t.slug = '../../evil'),
      (_, t) => (t.slug = 'a\nb'),
      (_, t) => (t.seq = 1_000_000_000),
      // Graph problems a hand edit can introduce: both refuse them.
      (_, t) => (t.depends = [t.seq]),
      (_, t) => (t.depends = [99]),
      (_, t) => (t.depends = [1, 1]),
      (_, t) => (t.seq = 1),
      (c, t) => {
        const tasks = c.tasks as Record<string, unknown>[];
        const other = tasks.find((x) => x !== t)!;
        t.depends = [other.seq];
        other.depends = [t.seq];
      },
      (_, t) => (t.depends = [...(t.depends as number[])].reverse()),
    ];
    fc.assert(
      fc.property(fc.nat(mutations.length - 1), fc.nat(4), (m, i) => {
        const c = campaign() as unknown as Record<string, unknown>;
        mutations[m]!(c, (c.tasks as Record<string, unknown>[])[i]!);
        expect(campaignValidator.safeParse(c).success).toBe(CampaignSchema.safeParse(c).success);
      }),
      { numRuns: 200 },
    );
  });

  test('checkPlan accepts what the plan schema accepts on the FTL example; ArchiveSchema describes complete() output', () => {
    const plan = { objective: 'x', tasks: [{ seq: '001', slug: 'a', type: 'spec', delta: ['a.ts'], verify: 'v', depends: 'none' }, { seq: 2, delta: ['b'], verify: 'v', depends: ['001'] }] };
    expect(PlanSchema.safeParse(plan).success).toBe(true);
    expect(checkPlan(plan).problems).toEqual([]);
    expect(PlanSchema.safeParse({ objective: 'x', tasks: [{ seq: 1, verify: 'v' }] }).success).toBe(false);
    expect(ArchiveSchema.safeParse({ campaign: campaign(), summary: { completedAt: 't', total: 5, counts: { pending: 4, in_progress: 0, complete: 0, blocked: 1 }, rootFailures: [], cascaded: [2], deltaFiles: [] } }).success).toBe(true);
  });

  test('the main entry never loads zod, directly or through its imports; fast-xml-parser only lazily', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect(packageImports(graph)).toEqual(['@ratchet/fsm-core', '@ratchet/store']);
    expect([...graph.lazyImports]).toEqual(['fast-xml-parser']);
    expect(graph.files.has(join(src, 'schema.ts'))).toBe(false);
  });
});
