import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test, vi } from 'vitest';

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
  const code = block(text, 'js').replace("from '@ratchet/goals'", "from '../src/index.js'");
  writeFileSync(TEMP, `// @ts-nocheck\n${code}`);
  const lines: string[] = [];
  const { inspect } = await import('node:util');
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ')));
  try {
    await import(/* @vite-ignore */ TEMP);
  } finally {
    spy.mockRestore();
  }
  expect(`${lines.join('\n')}\n`).toBe(block(text, 'text', text.indexOf('prints\n')));
});
