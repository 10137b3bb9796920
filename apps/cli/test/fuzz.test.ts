/**
 * Issue 16, fuzzing through the CLI in process: hostile plan texts and JSON inputs (random bytes,
 * deep nesting, `__proto__` keys, CRLF and BOM, truncation of valid input) never make a command
 * exit 70 (an internal error), and an input refused as an error (exit 2) changes no state file.
 * The number of inputs tried per parser is printed (and recorded in BENCHMARKS.md).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const RUNS = 120;
const SEED = 16;

async function ratchet(cwd: string, args: string[]): Promise<number> {
  const io: Io = { stdout: () => undefined, stderr: () => undefined, isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
  return run(args, io);
}

/** Hostile variations of a valid input: random text and bytes, nesting, prototype keys, CRLF/BOM, truncation. */
function hostile(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.integer({ min: 1, max: 5000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
    fc.integer({ min: 1, max: 5000 }).map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
    fc.integer({ min: 0, max: valid.length }).map((n) => valid.slice(0, n)),
    fc.constantFrom('__proto__', 'constructor', 'prototype').map((k) => valid.replace('{', `{"${k}": {"polluted": true}, `)),
    fc.constant(`\ufeff${valid.replace(/\n/g, '\r\n')}`),
    fc.json({ maxDepth: 6 }),
    fc.tuple(fc.integer({ min: 0, max: valid.length }), fc.string({ unit: 'binary', maxLength: 20 })).map(([i, s]) => valid.slice(0, i) + s + valid.slice(i)),
  );
}

describe('fuzzing through the CLI (in process)', { timeout: 600_000 }, () => {
  test('plan text: plan lint and run plan never exit 70; an input error leaves the session as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-plan-'));
    expect(await ratchet(dir, ['init', '--quiet'])).toBe(0);
    expect(await ratchet(dir, ['task', 'start', '--task-id', 'T-1', '--no-network'])).toBe(0);
    mkdirSync(join(dir, 'plans'));
    const session = join(dir, '.ratchet', 'session.json');
    const planning = readFileSync(session, 'utf8');
    const valid = 'set_plan x\nplan_step_complete go\nread_file knowledge_core/agent_meta.json\nfor_each_file protocols/*.json\n  read_file {file}\nrun_in_bash_session close\n';
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(hostile(valid), async (text) => {
        tried++;
        writeFileSync(join(dir, 'plans', 'p.txt'), text);
        writeFileSync(session, planning);
        expect(await ratchet(dir, ['plan', 'lint', 'plans/p.txt'])).not.toBe(70);
        const code = await ratchet(dir, ['run', 'plan', 'plans/p.txt']);
        expect(code).not.toBe(70);
        if (code === 2) expect(readFileSync(session, 'utf8')).toBe(planning);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`fuzz: plan text through plan lint + run plan: ${tried} inputs`);
    expect(tried).toBe(RUNS);
  });

  test('JSON: turn commit and fsm check never exit 70; a refused commit leaves goals.json as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-json-'));
    expect(await ratchet(dir, ['goals', 'add', 'Ship'])).toBe(0);
    const goals = join(dir, '.ratchet', 'goals.json');
    const valid = JSON.stringify({ turn_id: 't1', progress: [{ goal_id: 'g1', delta: 0.5 }], new_actions: [{ type: 'agent_task', title: 'x', metadata: { a: [1, { b: 2 }] } }] }, null, 2);
    const fsm = readFileSync(new URL('../../../protocols/fdc.fsm.json', import.meta.url), 'utf8');
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(hostile(valid), hostile(fsm), async (commit, machine) => {
        tried++;
        const before = readFileSync(goals, 'utf8');
        writeFileSync(join(dir, 'turn.json'), commit);
        const code = await ratchet(dir, ['turn', 'commit', 'turn.json']);
        expect(code).not.toBe(70);
        if (code !== 0) expect(readFileSync(goals, 'utf8')).toBe(before);
        writeFileSync(join(dir, 'm.fsm.json'), machine);
        expect(await ratchet(dir, ['fsm', 'check', 'm.fsm.json'])).not.toBe(70);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`fuzz: JSON through turn commit and fsm check: ${tried} inputs each`);
    expect(tried).toBe(RUNS);
  });
});
