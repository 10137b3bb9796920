import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const TEMP = fileURLToPath(new URL('./.readme-example.tmp.ts', import.meta.url));

afterAll(() => rmSync(TEMP, { force: true }));

test('the README example prints what its comments say (run against the sources)', async () => {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n```js\n') + 7;
  const code = text.slice(start, text.indexOf('\n```\n', start) + 1);
  // Every console.log line ends with `// expected output`.
  const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
  expect(expected.length).toBeGreaterThanOrEqual(4);
  const body = code.replace("from '@ratchet/campaign-dag'", "from '../src/index.js'").replaceAll('console.log(', '__log(');
  writeFileSync(TEMP, `// @ts-nocheck\nexport const printed = [];\nconst __log = (...a) => printed.push(a.map((x) => (typeof x === 'string' ? x : inspect(x, { depth: 5, breakLength: Infinity }))).join(' '));\nimport { inspect } from 'node:util';\n${body}`);
  const mod = (await import(/* @vite-ignore */ TEMP)) as { printed: string[] };
  expect(mod.printed).toEqual(expected);
  expect(inspect).toBeTypeOf('function');
});
