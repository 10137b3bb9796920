/**
 * Issue 16, fuzzing through the CLI in process: hostile plan texts and JSON inputs (random bytes,
 * deep nesting, `__proto__` keys, CRLF and BOM, truncation of valid input) never make a command
 * exit 70 (an internal error), and an input refused as an error (exit 2) changes no state file. The number of inputs tried per parser is printed (and recorded in
 * BENCHMARKS.md). The generators are in fuzz-inputs.ts; the other parsers' fuzz tests are beside this one.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RUNS, expectNoInternalError, fuzz, hostile, jsonMutations, keep, ok, ratchet, snapshot } from './fuzz-inputs.js';

const VALID_PLAN = 'set_plan x\nplan_step_complete go\nread_file knowledge_core/agent_meta.json\nfor_each_file protocols/*.json\n  read_file {file}\nrun_in_bash_session close\n';

/** A project with a task in PLANNING and a plans/ directory; `restore` puts it back as it is now. */
async function planningProject(prefix: string): Promise<{ dir: string; restore: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await ok(dir, ['init', '--quiet']);
  await ok(dir, ['task', 'start', '--task-id', 'T-1', '--no-network']);
  mkdirSync(join(dir, 'plans'));
  return { dir, restore: keep(dir) };
}

describe('fuzzing through the CLI (in process)', { timeout: 600_000 }, () => {
  test('plan text: plan lint and run plan never exit 70; an input error leaves the session as it was', async () => {
    const { dir, restore } = await planningProject('fuzz-plan-');
    await fuzz('plan text through plan lint + run plan', hostile(VALID_PLAN), RUNS, async (text) => {
      restore();
      writeFileSync(join(dir, 'plans', 'p.txt'), text);
      const before = snapshot(dir);
      const lint = await ratchet(dir, ['plan', 'lint', 'plans/p.txt']);
      expectNoInternalError(lint, ['plan', 'lint']);
      // Lint only reads, whatever it thinks of the plan.
      expect(snapshot(dir)).toEqual(before);
      const submit = await ratchet(dir, ['run', 'plan', 'plans/p.txt']);
      expectNoInternalError(submit, ['run', 'plan']);
      if (submit.code === 2) expect(snapshot(dir)).toEqual(before);
      return [lint.code, submit.code];
    });
  });

  test('JSON: turn commit and fsm check never exit 70; a refused commit leaves goals.json as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-json-'));
    await ok(dir, ['goals', 'add', 'Ship']);
    const restore = keep(dir);
    const valid = JSON.stringify({ turn_id: 't1', progress: [{ goal_id: 'g1', delta: 0.5 }], new_actions: [{ type: 'agent_task', title: 'x', metadata: { a: [1, { b: 2 }] } }] }, null, 2);
    const fsm = readFileSync(new URL('../../../protocols/fdc.fsm.json', import.meta.url), 'utf8');
    await fuzz('JSON through turn commit and fsm check (each)', fc.tuple(hostile(valid, jsonMutations(valid)), hostile(fsm, jsonMutations(fsm))), RUNS, async ([commit, machine]) => {
      restore();
      writeFileSync(join(dir, 'turn.json'), commit);
      writeFileSync(join(dir, 'm.fsm.json'), machine);
      const before = snapshot(dir);
      const turn = await ratchet(dir, ['turn', 'commit', 'turn.json']);
      expectNoInternalError(turn, ['turn', 'commit']);
      if (turn.code !== 0) expect(snapshot(dir)).toEqual(before);
      const check = await ratchet(dir, ['fsm', 'check', 'm.fsm.json']);
      expectNoInternalError(check, ['fsm', 'check']);
      return [turn.code, check.code];
    });
  });
});
