/**
 * What the bundled program carries: one CommonMark parser (markdown-it, which JIXO logs and
 * post-mortems both use), one diff library (jsdiff), and nothing of the parsers they replaced.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DIST } from './bundle.js';

const MAP = join(DIST, 'cli.cjs.map');

test.skipIf(!existsSync(MAP))('the program bundles markdown-it and jsdiff, and no second Markdown parser', () => {
  const packages = new Set(
    (JSON.parse(readFileSync(MAP, 'utf8')) as { sources: string[] }).sources.flatMap((s) => {
      const m = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(s);
      return m === null ? [] : [m[1]!];
    }),
  );
  expect(packages.has('markdown-it')).toBe(true);
  expect(packages.has('diff')).toBe(true);
  expect([...packages].filter((p) => /^(micromark|mdast-|marked|remark|unified)/.test(p))).toEqual([]);
});

test.skipIf(!existsSync(MAP))('no bundle requires a relative file at run time (a UMD wrapper esbuild could not follow)', () => {
  const files = readdirSync(DIST).filter((f) => /\.(c?js)$/.test(f));
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) expect(readFileSync(join(DIST, file), 'utf8'), file).not.toMatch(/require\(\s*["']\.\.?\//);
});

test.skipIf(!existsSync(MAP))('the program bundles contain no import(): vm.Script has no loader for it', () => {
  for (const file of readdirSync(DIST).filter((f) => f.endsWith('.cjs'))) expect(readFileSync(join(DIST, file), 'utf8'), file).not.toMatch(/\bimport\(\s*["'`]/);
});
