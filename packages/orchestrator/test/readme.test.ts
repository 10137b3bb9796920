// The README's example must run and print what the README says it prints (here against the
// sources; scripts/check-installed.mjs runs it verbatim against the packed package).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { inspect } from 'node:util';
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
  const code = block(text, 'js', text.indexOf('## Example'));
  expect(code).toContain("from '@ratchet/orchestrator'");
  writeFileSync(TEMP, `// @ts-nocheck\n${code.replace("from '@ratchet/orchestrator'", "from '../src/index.js'")}`);
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ')));
  try {
    await import(/* @vite-ignore */ TEMP);
  } finally {
    spy.mockRestore();
  }
  expect(`${lines.join('\n')}\n`).toBe(block(text, 'text', text.indexOf('Output:\n')));
});
