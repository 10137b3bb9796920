import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { MEMORY_STEPS } from '../src/quickstart/memory-steps.js';

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

test('the memory tour steps exit as they say, in order, in a fresh directory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-memory-tour-'));
  const outputs: string[] = [];
  for (const step of MEMORY_STEPS) {
    for (const example of step.examples ?? []) {
      mkdirSync(dirname(join(dir, 'examples', example)), { recursive: true });
      cpSync(join(examples, example), join(dir, 'examples', example));
    }
    let output = '';
    const io: Io = { stdout: (t) => void (output += t), stderr: (t) => void (output += t), isTTY: false, env: {}, cwd: dir, readStdin: () => Promise.resolve('') };
    expect(await run([...step.args, '--cwd', dir], io), `${step.title}\n${output}`).toBe(step.expectExit);
    outputs.push(output);
  }
  const at = (title: string): string => outputs[MEMORY_STEPS.findIndex((s) => s.title === title)]!;
  expect(at('A near-duplicate is merged, not stored twice')).toContain('merged into failure requests-missing');
  expect(at('Recall by topic')).toContain('critical');
  expect(at('What is related')).toContain('requests-missing');
  const hand = at('A hand-edited memory with a catastrophic regex');
  expect(hand).toContain('slow-parser: match "(a+)+$" not run');
  expect(at('Memory at a glance')).toContain('1/500 failures, 1/200 patterns, 1 relations');
});
