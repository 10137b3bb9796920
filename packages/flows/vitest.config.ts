import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@ratchet/source'] },
  ssr: { resolve: { conditions: ['@ratchet/source'] } },
  test: { name: 'flows', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000 },
});
