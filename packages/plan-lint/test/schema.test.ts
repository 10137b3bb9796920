import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { parsePlan } from '../src/index.js';
import { DialectSchema, PlanSchema } from '../src/schema.js';
import { PROTOCOLS } from './support.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('schemas', () => {
  test('schemas/*.schema.json are up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/plan-lint generate\``).toBe(text);
  });

  test('parsePlan output matches the plan schema', () => {
    const { plan } = parsePlan('set_plan x\nfor_each_file *\n  for_each_file *\n    read_file {file}\ncall_plan p\n', 'p.plan');
    expect(PlanSchema.safeParse(plan).success).toBe(true);
  });

  test('the shipped dialects match the dialect schema', () => {
    for (const id of ['fdc', 'research']) expect(DialectSchema.safeParse(JSON.parse(readFileSync(`${PROTOCOLS}${id}.dialect.json`, 'utf8'))).success).toBe(true);
  });

  test('the main entry never loads zod, directly or through its imports', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect([...graph.staticImports].sort()).toEqual(['@ratchet/fsm-core', '@ratchet/store/regex-guard']);
    expect([...graph.lazyImports]).toEqual([]);
    // A cap on the modules the entry pulls in, raised by one per small module added on purpose (expansion.ts, vocabulary.ts, grammars.ts, line-alphabet.ts).
    expect(graph.files.size).toBeLessThanOrEqual(18);
  });
});
