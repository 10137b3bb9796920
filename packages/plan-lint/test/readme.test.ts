import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const TEMP = fileURLToPath(new URL('./.readme-example.tmp.ts', import.meta.url));

afterAll(() => rmSync(TEMP, { force: true }));

function block(text: string, lang: string, after = 0): string {
  const start = text.indexOf(`\n\`\`\`${lang}\n`, after);
  if (start < 0) throw new Error(`no ${lang} block`);
  const from = start + lang.length + 5;
  return text.slice(from, text.indexOf('\n```\n', from) + 1);
}

test('the README example prints what the README says (run against the sources)', async () => {
  const text = readFileSync(README, 'utf8');
  const code = block(text, 'js')
    .replace("from '@ratchet/plan-lint'", "from '../src/index.js'")
    .replace('process.stdout.write(formatStylish(findings));', 'export const output = formatStylish(findings);');
  expect(code).toContain('export const output');
  writeFileSync(TEMP, `// @ts-nocheck\n${code}`);
  const mod = (await import(/* @vite-ignore */ TEMP)) as { output: string };
  const printed = block(text, '', text.indexOf('prints\n'));
  expect(mod.output).toBe(printed);
});
