import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveInsideRoot, type ProtocolError } from '../src/index.js';
import { tempDir } from './support.js';

describe('resolveInsideRoot', () => {
  test('inside paths resolve; absolute, "..", NUL and symlink escapes are refused', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'src', 'a.ts'), '');
    await symlink(outside, join(root, 'escape'));
    await symlink(join(outside, 'f'), join(root, 'src', 'link.ts'));
    expect(await resolveInsideRoot(root, 'src/a.ts')).toMatch(/src\/a\.ts$/);
    expect(await resolveInsideRoot(root, 'src/new/deep.ts')).toMatch(/deep\.ts$/);
    for (const bad of ['/etc/passwd', '../x', 'src/../../x', 'a\0b', 'escape/f', 'escape/new/file', 'src/link.ts', 'C:\\x']) {
      const err = (await resolveInsideRoot(root, bad).catch((e: unknown) => e)) as ProtocolError;
      expect(err.code, bad).toBe('unsafe-path');
    }
  });
});
