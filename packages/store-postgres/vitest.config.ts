import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@ratchet/source'] },
  ssr: { resolve: { conditions: ['@ratchet/source'] } },
  test: {
    name: 'store-postgres',
    include: ['test/**/*.test.ts'],
    // Tests spawn processes and talk to a real server on a busy shared machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One throwaway cluster for the whole run (or a loud skip, or a failure under RATCHET_REQUIRE_PG=1).
    globalSetup: ['test/support/global-setup.ts'],
  },
});
