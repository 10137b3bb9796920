import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));

test.skipIf(!existsSync(dist) && !process.env.CI)('the README example runs and prints what its comments say (against dist)', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)![1]!.replace("'@ratchet/jixo-log'", JSON.stringify(dist));
  const dir = await mkdtemp(join(tmpdir(), 'jixo-readme-'));
  await writeFile(join(dir, 'example.mjs'), code);
  const out = execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
  expect(out.trim().split('\n')).toEqual(['Runner 1', '1']);
});
