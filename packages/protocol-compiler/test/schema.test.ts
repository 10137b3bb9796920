import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { importGraph } from '../../../scripts/dev/import-graph.js';
import { generate } from '../scripts/generate.js';
import { checkCompileConfig, compileProtocolSchema, defaultProtocolSchema, readCompileConfig, unifiedDiff, type ProtocolError } from '../src/index.js';
import { protocolJson, tempDir, writeFiles } from './support.js';
import { CompileConfigSchema, ProtocolSchema } from '../src/schema.js';

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

describe('protocols/compile.json', () => {
  test('the hand-written check agrees with the zod schema', () => {
    const samples: unknown[] = [
      { targets: ['AGENTS.md'] },
      { $schema: 'x', targets: ['AGENTS.md', 'docs/CLAUDE.md', '.github/copilot-instructions.md', 'a..b.md'] },
      { targets: [] },
      { targets: [''] },
      { targets: ['/etc/x'] },
      { targets: ['C:\\x.md'] },
      { targets: ['\\share\\x.md'] },
      { targets: ['../x.md'] },
      { targets: ['docs/../../x.md'] },
      { targets: ['docs\\..\\x.md'] },
      { targets: ['..'] },
      { targets: ['a\0b'] },
      { targets: [1] },
      { targets: 'AGENTS.md' },
      { targets: ['AGENTS.md'], extra: 1 },
      [],
      null,
    ];
    for (const sample of samples) expect(checkCompileConfig(sample).length === 0, JSON.stringify(sample)).toBe(CompileConfigSchema.safeParse(sample).success);
  });

  test('read: none is undefined; problems have pointers and places; the repository has one', async () => {
    const dir = await tempDir();
    expect(await readCompileConfig(dir)).toBeUndefined();
    await writeFiles(dir, { 'compile.json': '{\n  "targets": [\n    "AGENTS.md",\n    "../outside.md",\n    "/abs.md"\n  ],\n  "x": 1\n}\n', 'a.protocol.json': protocolJson('a') });
    const err = (await readCompileConfig(dir).catch((e: unknown) => e)) as ProtocolError;
    expect(err.code).toBe('bad-config');
    expect(err.problems.map((p) => [p.pointer, p.line])).toEqual([['/x', 7], ['/targets/1', 4], ['/targets/2', 5]]);
    await writeFiles(dir, { 'compile.json': '{"targets": ["AGENTS.md", "CLAUDE.md"]}' });
    expect(await readCompileConfig(dir)).toEqual({ targets: ['AGENTS.md', 'CLAUDE.md'] });
    expect(await readCompileConfig(join(repo, 'protocols'))).toEqual({ targets: ['AGENTS.md'] });
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
