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
  const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
  expect(expected).toHaveLength(3);
  const body = code.replace("from '@ratchet/flows'", "from '../src/index.js'").replaceAll('console.log(', 'log(');
  writeFileSync(TEMP, `// @ts-nocheck\nimport { format } from 'node:util';\nexport const printed = [];\nconst log = (...a) => printed.push(format(...a));\n${body}`);
  const mod = (await import(/* @vite-ignore */ TEMP)) as { printed: string[] };
  expect(mod.printed).toEqual(expected);
});
