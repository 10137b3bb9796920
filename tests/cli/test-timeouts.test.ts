/**
 * Issue 16: tests that spawn processes or run the CLI must hold on a busy machine. Every project's
 * vitest config sets a generous testTimeout (vitest's 5 s default failed the lessons quickstart test
 * on a loaded 2-core machine).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../helpers.js';

const configs = [
  ...readdirSync(join(repoRoot, 'packages')).map((p) => join('packages', p, 'vitest.config.ts')),
  join('apps', 'cli', 'vitest.config.ts'),
  join('tests', 'vitest.config.ts'),
];

describe('test timeouts', () => {
  test.each(configs)('%s sets testTimeout of at least 60 s', async (rel) => {
    const config = ((await import(join(repoRoot, rel))) as { default: { test?: { testTimeout?: number } } }).default;
    expect(config.test?.testTimeout ?? 0).toBeGreaterThanOrEqual(60_000);
  });

});
