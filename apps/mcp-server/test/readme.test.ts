import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { serverBin, tempDir } from './helpers.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const TEMP = fileURLToPath(new URL('./.readme-example.tmp.ts', import.meta.url));

afterAll(() => rmSync(TEMP, { force: true }));

test('the README example prints what its comments say (against the built server in a fresh directory)', { timeout: 60_000 }, async () => {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n```js\n') + 7;
  const code = text.slice(start, text.indexOf('\n```\n', start) + 1);
  const expected = [...code.matchAll(/console\.log\(.*\/\/ (.*)$/gm)].map((m) => m[1]!);
  expect(expected.length).toBeGreaterThanOrEqual(3);
  const project = tempDir();
  // npx would fetch the published package; the example runs this working tree's build instead.
  const body = code
    .replace("command: 'npx',", 'command: process.execPath,')
    .replace("args: ['-y', '@ratchet/mcp-server'],", `args: [${JSON.stringify(serverBin)}], cwd: ${JSON.stringify(project)},`)
    .replaceAll('console.log(', 'log(');
  expect(body).toContain(serverBin);
  const prelude = "import { inspect } from 'node:util';\nexport const printed = [];\nconst log = (...xs) => printed.push(xs.map((x) => (typeof x === 'string' ? x : inspect(x))).join(' '));\n";
  writeFileSync(TEMP, `// @ts-nocheck\n${prelude}${body}`);
  const mod = (await import(/* @vite-ignore */ TEMP)) as { printed: string[] };
  expect(mod.printed).toEqual(expected);
});
