import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { registryPatch } from '../src/diff.js';
import { tempDir } from './support.js';

test('registryPatch produces patches that git apply accepts and that reproduce the new text', async () => {
  const dir = tempDir('diff-');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  mkdirSync(join(dir, 'p'));
  const line = fc.constantFrom('a', 'b', 'c', 'd', '  "x": 1,', '}');
  await fc.assert(
    fc.asyncProperty(fc.array(line, { maxLength: 40 }), fc.array(line, { maxLength: 40 }), async (before, after) => {
      const a = before.map((l) => `${l}\n`).join('');
      const b = after.map((l) => `${l}\n`).join('');
      const patch = await registryPatch(a, b, 'p/file.txt');
      if (a === b) {
        expect(patch).toBe('');
        return;
      }
      writeFileSync(join(dir, 'p', 'file.txt'), a);
      writeFileSync(join(dir, 'change.patch'), patch);
      execFileSync('git', ['apply', 'change.patch'], { cwd: dir });
      expect(readFileSync(join(dir, 'p', 'file.txt'), 'utf8')).toBe(b);
    }),
    { seed: 3, numRuns: 60 },
  );
});
