import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { FLOW_SET, PROTOCOL_SET, SCAFFOLD } from '../src/scaffold.js';

const protocols = fileURLToPath(new URL('../../../protocols/', import.meta.url));

test("init scaffolds every protocol source Ratchet ships (sources, prose, schema, VERSION, compile targets), so a new project's AGENTS.md is never empty", () => {
  const shipped = readdirSync(protocols).filter((f) => /\.protocol\.(json|md)$/.test(f)).sort();
  const listed = PROTOCOL_SET.flatMap((p) => [`${p.base}.protocol.json`, ...(p.prose ? [`${p.base}.protocol.md`] : [])]).sort();
  expect(listed).toEqual(shipped);
  const paths = SCAFFOLD.map((f) => f.path);
  for (const f of [...shipped, 'protocol.schema.json', 'VERSION', 'compile.json']) expect(paths).toContain(`protocols/${f}`);
  expect(new Set(paths).size).toBe(paths.length);
});

test('init scaffolds every built-in flow with its step files, and the memory directory its gates read', () => {
  const shipped = readdirSync(join(protocols, 'flows'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `protocols/${join(e.parentPath, e.name).slice(protocols.length)}`.replaceAll('\\', '/'))
    .sort();
  const paths = SCAFFOLD.map((f) => f.path);
  expect(paths.filter((p) => p.startsWith('protocols/flows/')).sort()).toEqual(shipped);
  expect(FLOW_SET.map((f) => f.name).sort()).toEqual(['develop-feature', 'reasoning']);
  expect(paths).toContain('.claude/memory/.gitkeep');
});
