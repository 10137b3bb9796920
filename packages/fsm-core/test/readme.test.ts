// The README's example must run and print what the README says it prints.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';

const pkg = fileURLToPath(new URL('../', import.meta.url));

test('the README example runs and prints the documented output', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = /## Example\n\n```js\n([\s\S]*?)```\n\nprints\n\n```text\n([\s\S]*?)```/.exec(readme);
  expect(example, 'README must have an "## Example" js block followed by its output').not.toBeNull();
  const [, code, output] = example!;
  // Against the sources (no build needed): the package import becomes the source entry, run by tsx.
  const source = pathToFileURL(fileURLToPath(new URL('../src/index.ts', import.meta.url))).href;
  expect(code).toContain("from '@ratchet/fsm-core'");
  const runnable = code!.replace("from '@ratchet/fsm-core'", `from '${source}'`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', runnable], { cwd: pkg, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(output);
});
