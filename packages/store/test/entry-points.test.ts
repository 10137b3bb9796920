/**
 * The main entry stays light: it must never load vitest (the conformance kit's peer) or pg (only
 * @ratchet/store-postgres may, loaded on demand). Walks the static import graph of src/index.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

function staticImports(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports and re-exports only (`import type` is erased); dynamic import() is on-demand by design.
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)';/gmsu)) {
      const spec = match[1] ?? '';
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/u, '.ts')));
      else packages.add(spec);
    }
  };
  visit(join(src, entry));
  return { files, packages };
}

describe('entry points', () => {
  it('the main entry imports neither vitest nor pg, nor the conformance kit', () => {
    const { files, packages } = staticImports('index.ts');
    expect([...packages].filter((p) => /^(?:vitest|pg|@ratchet\/store-postgres)(?:\/|$)/u.test(p))).toEqual([]);
    expect([...files].some((f) => f.includes(`${join('src', 'conformance')}`))).toBe(false);
    // The walk does see the file backend: it would notice an import if one were added.
    expect([...files].some((f) => f.endsWith(join('file-backend', 'backend.ts')))).toBe(true);
  });

  it('the conformance kit is its own entry and does load vitest', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown>; peerDependenciesMeta: Record<string, { optional: boolean }> };
    expect(pkg.exports['./conformance']).toMatchObject({ default: './dist/conformance/index.js' });
    expect(pkg.peerDependenciesMeta.vitest?.optional).toBe(true);
    expect(staticImports(join('conformance', 'index.ts')).packages.has('vitest')).toBe(true);
  });
});
