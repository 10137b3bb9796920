import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@ratchet/source'] },
  ssr: { resolve: { conditions: ['@ratchet/source'] } },
  test: { name: 'e2e', include: ['**/*.test.ts'], exclude: ['**/node_modules/**'], testTimeout: 60_000 },
});
