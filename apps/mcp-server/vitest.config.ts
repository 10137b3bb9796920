import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@ratchet/source'] },
  ssr: { resolve: { conditions: ['@ratchet/source'] } },
  test: { name: 'mcp-server', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
