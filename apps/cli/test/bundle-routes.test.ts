/**
 * The bin runs each call from its command area's bundle (dist/cli-<area>.cjs, routed by
 * dist/cli-routes.json): every command word must reach a bundle that has its commands, and a bundle
 * must not carry the other areas (that is what makes it small).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: plain JavaScript beside the bin, without a declaration file.
import * as cache from '../bin/compile-cache.js';
import { AREAS } from '../src/areas.js';
import { DIST } from './bundle.js';

const { bundleFor } = cache as { bundleFor: (dist: string, args: string[]) => string };
const BIN = fileURLToPath(new URL('../bin/ratchet.js', import.meta.url));
const ROUTES = join(DIST, 'cli-routes.json');
const built = existsSync(ROUTES);
const routes = (): Record<string, string> => JSON.parse(readFileSync(ROUTES, 'utf8')) as Record<string, string>;
const sourcesOf = (bundle: string): string[] => (JSON.parse(readFileSync(join(DIST, `${bundle}.map`), 'utf8')) as { sources: string[] }).sources;

describe('per-area program bundles', () => {
  test.skipIf(!built)('the routes name every command word of AREAS and the core commands, each to an existing bundle', () => {
    const expected: Record<string, string> = { fsm: 'cli-core.cjs', plan: 'cli-core.cjs', init: 'cli-core.cjs' };
    // The hook area runs other areas in process (session start, prompt): the full program serves it.
    for (const area of AREAS) for (const word of area.commands) expected[word] = area.name === 'hook' ? 'cli.cjs' : `cli-${area.name}.cjs`;
    expect(routes()).toEqual(expected);
    for (const file of new Set(Object.values(routes()))) expect(existsSync(join(DIST, file)), file).toBe(true);
  });

  test.skipIf(!built)("an area bundle registers its own area's commands and no other area's", () => {
    const registers = (bundle: string): string[] => sourcesOf(bundle).flatMap((s) => /src\/commands\/([a-z-]+)\/register\.ts$/.exec(s)?.[1] ?? []);
    for (const area of AREAS.filter((a) => a.name !== 'hook')) expect(registers(`cli-${area.name}.cjs`), area.name).toEqual([area.name]);
    expect(registers('cli-core.cjs')).toEqual([]);
    const core = sourcesOf('cli-core.cjs');
    expect(core.some((s) => s.endsWith('src/commands/plan-lint.ts'))).toBe(true);
    expect(core.some((s) => s.endsWith('src/commands/quickstart.ts'))).toBe(false);
    expect(registers('cli.cjs').sort()).toEqual(AREAS.map((a) => a.name).sort());
  });

  test.skipIf(!built)('every command word answers --help from its own bundle', { timeout: 180_000 }, () => {
    for (const word of Object.keys(routes())) {
      const r = spawnSync(process.execPath, [BIN, word, '--help'], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, `${word}: ${r.stderr}`).toBe(0);
      expect(r.stdout, word).toContain(`Usage: ratchet ${word}`);
    }
  });

  test.skipIf(!built)('no command, an unknown one or quickstart: the full program', () => {
    const full = join(DIST, 'cli.cjs');
    expect(bundleFor(DIST, [])).toBe(full);
    expect(bundleFor(DIST, ['--help'])).toBe(full);
    expect(bundleFor(DIST, ['quickstart', '--dir', 'x'])).toBe(full);
    expect(bundleFor(DIST, ['no-such-command'])).toBe(full);
    expect(bundleFor(DIST, ['__proto__'])).toBe(full);
    expect(bundleFor(DIST, ['--cwd', 'plan', 'run', 'next'])).toBe(join(DIST, 'cli-orchestrator.cjs'));
  });
});
