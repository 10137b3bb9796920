/**
 * Finding the pinned agent CLIs in the cache (scripts/harnesses.mjs): an install counts only once
 * its stamp is written, and a missing one skips its suite loudly, or fails it under
 * RATCHET_REQUIRE_HARNESSES=1 (CI), so CI can never pass without running them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { HARNESS_PINS, harnessDirs, locateHarness } from '../../scripts/harnesses.mjs';
import { repoRoot, tempDir } from '../helpers.js';
import { missingBanner } from './installed.js';

describe('the harness cache', () => {
  test('a harness is found only when it and its extras carry their stamp', () => {
    const cache = tempDir('ratchet-harness-cache-');
    const env = { RATCHET_HARNESS_CACHE: cache };
    expect(locateHarness('opencode', env)).toBeUndefined();
    const [own, plugin] = harnessDirs('opencode', env);
    mkdirSync(own!.dir, { recursive: true });
    // Interrupted: the directory is there, the stamp is not.
    expect(locateHarness('opencode', env)).toBeUndefined();
    writeFileSync(join(own!.dir, '.ratchet-harness.json'), '{}');
    expect(locateHarness('opencode', env)).toBeUndefined();
    mkdirSync(plugin!.dir, { recursive: true });
    writeFileSync(join(plugin!.dir, '.ratchet-harness.json'), '{}');
    expect(locateHarness('opencode', env)).toMatchObject({
      version: HARNESS_PINS.opencode.version,
      bin: join(cache, `opencode@${HARNESS_PINS.opencode.version}`, 'node_modules', '.bin', 'opencode'),
      extras: { 'opencode-plugin': plugin!.dir },
    });
    expect(() => harnessDirs('cursor', env)).toThrow(/unknown harness "cursor"/);
  });

  test('a missing harness is a loud skip, and a failure under RATCHET_REQUIRE_HARNESSES=1', () => {
    expect(missingBanner('gemini', { RATCHET_HARNESS_CACHE: '/nowhere' })).toMatch(/the gemini end-to-end tests were SKIPPED[\s\S]*node scripts\/harnesses\.mjs install gemini/);
    expect(() => missingBanner('gemini', { RATCHET_HARNESS_CACHE: '/nowhere', RATCHET_REQUIRE_HARNESSES: '1' })).toThrow(/RATCHET_REQUIRE_HARNESSES=1 but gemini is not installed in \/nowhere/);
  });

  test('status lists every pin and exits 1 while one is missing', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/harnesses.mjs'), 'status', '--json'], { encoding: 'utf8', env: { ...process.env, RATCHET_HARNESS_CACHE: tempDir('ratchet-harness-cache-') } });
    expect(r.status).toBe(1);
    const status = JSON.parse(r.stdout) as { harnesses: { name: string; location: unknown }[] };
    expect(status.harnesses.map((h) => [h.name, h.location])).toEqual(Object.keys(HARNESS_PINS).map((n) => [n, null]));
  });
});
