/**
 * The agent CLIs the end-to-end tests run, as `node scripts/harnesses.mjs install` left them in the
 * cache. Missing: the suite is skipped with a loud banner, or fails under RATCHET_REQUIRE_HARNESSES=1
 * (CI sets it), so a machine without them can never pass CI silently.
 */
import { harnessCache, locateHarness } from '../../scripts/harnesses.mjs';

export interface InstalledHarness {
  name: string;
  version: string;
  dir: string;
  bin: string;
  /** XDG_CACHE_HOME for runs: what the CLI unpacked at install time is there. */
  xdgCache: string;
  extras: Record<string, string>;
}

/** The banner of a run without the harness; throws instead when RATCHET_REQUIRE_HARNESSES=1. */
export function missingBanner(name: string, env: Readonly<Record<string, string | undefined>>): string {
  const reason = `${name} is not installed in ${harnessCache(env)} (run: node scripts/harnesses.mjs install ${name})`;
  if (env.RATCHET_REQUIRE_HARNESSES === '1') throw new Error(`RATCHET_REQUIRE_HARNESSES=1 but ${reason}`);
  const line = '!'.repeat(100);
  return `\n${line}\n!! tests/harnesses: the ${name} end-to-end tests were SKIPPED.\n!! ${reason}\n${line}\n`;
}

/** The installed harness, or undefined after printing the banner (throwing under RATCHET_REQUIRE_HARNESSES=1). */
export function installed(name: string, env: Readonly<Record<string, string | undefined>> = process.env): InstalledHarness | undefined {
  const found: InstalledHarness | undefined = locateHarness(name, env);
  if (found !== undefined) return found;
  console.warn(missingBanner(name, env));
  return undefined;
}
