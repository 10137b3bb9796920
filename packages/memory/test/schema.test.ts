import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { addFailure, addPattern, checkMemoryData, link } from '../src/index.js';
import { MemoryDataSchema } from '../src/schema.js';
import { emptyMemory, failure, NOW, pattern } from './support.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('schemas', () => {
  test('schemas/memory.schema.json is up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/memory generate\``).toBe(text);
  });

  test('what the library writes matches the zod schema and the runtime validator', () => {
    const data = emptyMemory();
    addFailure(data, { trigger: 'vite HMR breaks on symlinked packages', fix: 'preserveSymlinks', cost: 2000, match: 'HMR.*symlink', tags: ['vite'] }, { now: NOW });
    addPattern(data, { trigger: 'mock httpx clients with respx', insight: 'respx routes', saved: 500 }, { now: NOW });
    link(data, data.failures[0]!.name, data.patterns[0]!.name, 'solved_by');
    expect(MemoryDataSchema.safeParse(data).success).toBe(true);
    expect(checkMemoryData(data)).toEqual([]);
  });

  test('property: the runtime validator and the zod schema agree', () => {
    const entryMutations = [
      (e: Record<string, unknown>) => ({ ...e, cost: -1 }),
      (e: Record<string, unknown>) => ({ ...e, access_count: 1.5 }),
      (e: Record<string, unknown>) => ({ ...e, name: '' }),
      (e: Record<string, unknown>) => ({ ...e, name: '-x' }),
      (e: Record<string, unknown>) => ({ ...e, last_accessed: '2026-01-01' }),
      (e: Record<string, unknown>) => ({ ...e, created_at: null }),
      (e: Record<string, unknown>) => ({ ...e, related: [1] }),
      (e: Record<string, unknown>) => ({ ...e, related_typed: { solves: 'x' } }),
      (e: Record<string, unknown>) => ({ ...e, tags: 'x' }),
      (e: Record<string, unknown>) => ({ ...e, extra: true }),
      (e: Record<string, unknown>) => ({ ...e, match: 3 }),
      (e: Record<string, unknown>) => {
        const { trigger: _t, ...rest } = e;
        return rest;
      },
      (e: Record<string, unknown>) => e,
      (e: Record<string, unknown>) => ({ ...e, last_accessed: '2026-02-03T04:05:06.789+02:00', tags: ['a'], related_typed: { variant: ['q'] } }),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.nat(entryMutations.length - 1)), { maxLength: 6 }),
        (picks) => {
          const data: { failures: unknown[]; patterns: unknown[] } = { failures: [], patterns: [] };
          picks.forEach(([isFailure, m], i) => {
            const e = isFailure ? failure(`e${i}`, 'trigger text') : pattern(`e${i}`, 'trigger text');
            (isFailure ? data.failures : data.patterns).push(entryMutations[m]!(e));
          });
          expect(checkMemoryData(data).length === 0).toBe(MemoryDataSchema.safeParse(data).success);
          for (const observed of [['c/001_a'], [1], 'c/001_a']) {
            const withObserved = { ...data, observed };
            expect(checkMemoryData(withObserved).length === 0).toBe(MemoryDataSchema.safeParse(withObserved).success);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('the main entry never loads zod, directly or through its imports', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect([...graph.staticImports].sort()).toEqual(['@ratchet/store', 'node:child_process']);
    // The one lazy import: the optional transformer embedder's package, only when a project configures it.
    expect([...graph.lazyImports]).toEqual(['@huggingface/transformers']);
  });
});
