import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@ratchet/source'] },
  ssr: { resolve: { conditions: ['@ratchet/source'] } },
  test: {
    name: 'store',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Tests spawn processes: a busy shared machine must not fail them at vitest's 5 s default.
    testTimeout: 60_000,
    // Transpiles the source once for the child processes of the concurrency and crash tests.
    globalSetup: ['test/support/global-setup.ts'],
    // The multi-process tests mostly wait on children and fsync; two files at a time (vitest's
    // default is one on a 2-core machine) overlap those waits and nearly halve the run.
    maxWorkers: 2,
    // Vitest runs projects with different maxWorkers in separate groups: the root run needs an order.
    sequence: { groupOrder: 1 },
  },
});
