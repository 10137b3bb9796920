import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const TEMP = fileURLToPath(new URL('./.readme-example.tmp.ts', import.meta.url));

afterAll(() => rmSync(TEMP, { force: true }));

test('the README example prints what its comments say (run against the sources)', async () => {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n```js\n') + 7;
  const code = text.slice(start, text.indexOf('\n```\n', start) + 1);
  // Each `// comment` on a console.log line is the expected output (up to a colon for explanations).
  const expected = [...code.matchAll(/console\.log\(.*\/\/ (.*)$/gm)].map((m) => m[1]!.replace(/: .*$/, ''));
  expect(expected.length).toBeGreaterThanOrEqual(6);
  const body = code.replace("from '@ratchet/memory'", "from '../src/index.js'").replaceAll('console.log(', 'log(');
  // console.log's formatting: strings as is, anything else through util.inspect.
  const prelude = "import { inspect } from 'node:util';\nexport const printed = [];\nconst log = (...xs) => printed.push(xs.map((x) => (typeof x === 'string' ? x : inspect(x))).join(' '));\n";
  writeFileSync(TEMP, `// @ts-nocheck\n${prelude}${body}`);
  const mod = (await import(/* @vite-ignore */ TEMP)) as { printed: string[] };
  expect(mod.printed).toEqual(expected);
});
