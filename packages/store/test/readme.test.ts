/**
 * The README's example must run as written: against the built package (`dist/`, through the
 * package's own name) when a build is at least as new as the sources, and always against the
 * current sources (transpiled for child processes by support/compile.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { packageDir } from './support/compile.js';

const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const example = /```js\n([\s\S]*?)```/u.exec(readme)?.[1] ?? '';

function run(code: string): { status: number | null; stdout: string; stderr: string } {
  // Inside the package directory, so that `@ratchet/store` (self-reference) and `zod` resolve.
  const file = join(packageDir, `.readme-example-${process.pid}.mjs`);
  writeFileSync(file, code);
  try {
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', cwd: packageDir });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(file, { force: true });
  }
}

const expected = ['3', '1', 'r1', 'parse-error 4 1'];

function builtAndFresh(): boolean {
  const entry = join(packageDir, 'dist', 'index.js');
  if (!existsSync(entry)) return false;
  const built = statSync(entry).mtimeMs;
  return readdirSync(join(packageDir, 'src')).every((name) => statSync(join(packageDir, 'src', name)).mtimeMs <= built);
}

describe('README example', () => {
  it('has one', () => {
    expect(example).toContain("from '@ratchet/store'");
  });

  it('runs against the current sources', () => {
    const source = pathToFileURL(join(inject('childDir'), 'src', 'index.js')).href;
    const r = run(example.replace("from '@ratchet/store'", `from '${source}'`));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(expected);
  }, 60_000);

  it.runIf(builtAndFresh())('runs against the built package', () => {
    const r = run(example);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(expected);
  }, 60_000);
});
