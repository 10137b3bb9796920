import { defineConfig } from 'vitest/config';

// One root config; each package/app owns a vitest.config.ts declaring its project,
// so `pnpm --filter <pkg> test` and `pnpm vitest run` at the root see the same tests.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests'],
  },
});
