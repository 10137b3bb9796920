import type { TestProject } from 'vitest/node';
import { startTestCluster, testClusterAvailability } from '../../src/testing.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway cluster's URL, or '' when PostgreSQL is not available (the suites skip). */
    pgUrl: string;
  }
}

/**
 * One throwaway cluster per run; tests isolate by `project` id (every row carries it) or by a
 * database of their own. Without PostgreSQL the suites skip with a loud banner, and fail instead
 * under RATCHET_REQUIRE_PG=1 (CI), so a machine without it can never pass CI silently.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const availability = testClusterAvailability();
  if (!availability.available) {
    console.warn(skipBanner(availability.reason, process.env));
    project.provide('pgUrl', '');
    return () => Promise.resolve();
  }
  const cluster = await startTestCluster();
  project.provide('pgUrl', cluster.url);
  return () => cluster.stop();
}

/** The banner of a run without PostgreSQL; throws instead when RATCHET_REQUIRE_PG=1 (CI). */
export function skipBanner(reason: string, env: Readonly<Record<string, string | undefined>>): string {
  if (env.RATCHET_REQUIRE_PG === '1') throw new Error(`RATCHET_REQUIRE_PG=1 but ${reason}`);
  const line = '!'.repeat(100);
  return `\n${line}\n!! @ratchet/store-postgres: the PostgreSQL tests were SKIPPED.\n!! ${reason}\n${line}\n`;
}
