import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { compileProtocolSchema, defaultProtocolSchema, unifiedDiff } from '../src/index.js';
import { ProtocolSchema } from '../src/schema.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('schemas', () => {
  test('schemas/protocol.schema.json is up to date with src/schema.ts', () => {
    for (const { path, text } of generate()) expect(readFileSync(path, 'utf8'), `stale ${path}: run \`pnpm --filter @ratchet/protocol-compiler generate\``).toBe(text);
  });

  test("the repository's protocols/protocol.schema.json is the shipped default", () => {
    expect(JSON.parse(readFileSync(join(repo, 'protocols/protocol.schema.json'), 'utf8'))).toEqual(defaultProtocolSchema());
  });

  test('zod and ajv agree on samples', () => {
    const ajv = compileProtocolSchema(defaultProtocolSchema());
    const samples: unknown[] = [
      { protocol_id: 'a', description: 'd', rules: [] },
      { protocol_id: 'a', description: 'd', rules: [{ rule_id: 'r', description: 'x', enforcement: 'y' }], associated_tools: ['t'] },
      { protocol_id: 'A', description: 'd', rules: [] },
      { protocol_id: 'a', description: '', rules: [] },
      { protocol_id: 'a', description: 'd', rules: [{ rule_id: 'r' }] },
      { protocol_id: 'a', description: 'd', rules: [], extra: 1 },
      [],
    ];
    for (const sample of samples) expect(ajv(sample).ok, JSON.stringify(sample)).toBe(ProtocolSchema.safeParse(sample).success);
  });

  test('the main entry never loads zod', () => {
    const graph = importGraph(join(src, 'index.ts'));
    expect([...graph.staticImports, ...graph.lazyImports].filter((s) => s.includes('zod'))).toEqual([]);
  });
});

describe('unifiedDiff', () => {
  test('empty for equal texts; hunks with context; no-newline marker', () => {
    expect(unifiedDiff('a\n', 'a\n')).toBe('');
    const d = unifiedDiff('1\n2\n3\n4\n5\n6\n7\n8\n9\n', '1\n2\n3\n4\nX\n6\n7\n8\n9\n', { from: 'a', to: 'b' });
    expect(d).toBe('--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n');
    expect(unifiedDiff('a', 'b')).toContain('\\ No newline at end of file');
  });
});
