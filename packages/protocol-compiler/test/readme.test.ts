import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test, vi } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const TEMP = fileURLToPath(new URL('./.readme-example.tmp.ts', import.meta.url));
afterAll(() => rmSync(TEMP, { force: true }));

test('the README example prints what its comments say (run against the sources)', async () => {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('```js\n') + 6;
  const code = text.slice(start, text.indexOf('\n```\n', start) + 1).replace("'@ratchet/protocol-compiler'", "'../src/index.js'");
  const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  writeFileSync(TEMP, `// @ts-nocheck\n${code}`);
  await import(/* @vite-ignore */ TEMP);
  expect(log.mock.calls.map((args) => args.map(String).join(' '))).toEqual(expected);
  log.mockRestore();
});
