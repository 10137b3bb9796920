/**
 * Issue 16, fuzzing through the CLI in process: hostile plan texts, dialects and JSON inputs (random
 * bytes, deep nesting, `__proto__` keys, CRLF and BOM, truncation of valid input, patterns that
 * backtrack catastrophically) never make a command exit 70 (an internal error) nor hang, and an
 * input refused as an error (exit 2) changes no state file. The number of inputs tried per parser is printed (and recorded in
 * BENCHMARKS.md). The generators are in fuzz-inputs.ts; the other parsers' fuzz tests are beside this one.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RUNS, expectNoInternalError, fuzz, hostile, jsonMutations, keep, ok, ratchet, readOnly, refusalKeepsState, snapshot } from './fuzz-inputs.js';

const VALID_PLAN = 'set_plan x\nplan_step_complete go\nread_file knowledge_core/agent_meta.json\nfor_each_file protocols/*.json\n  read_file {file}\nrun_in_bash_session close\n';

/** A project with a task in PLANNING and `plan` as plans/p.txt; `restore` puts it back as it is now. */
async function planningProject(prefix: string, plan = VALID_PLAN): Promise<{ dir: string; restore: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await ok(dir, ['init', '--quiet']);
  await ok(dir, ['task', 'start', '--task-id', 'T-1', '--no-network']);
  mkdirSync(join(dir, 'plans'));
  writeFileSync(join(dir, 'plans', 'p.txt'), plan);
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

  test('dialect JSON: plan lint --dialect and run plan (project dialect) never exit 70 nor hang; a refused dialect changes nothing', async () => {
    // Arguments a backtracking pattern chokes on: `(a+)+$` takes about 20 s on 28 "a"s and a "!"
    // (hours on 40). A running regex cannot be interrupted in process, so a slow command is caught
    // after it returns: each must take less than 10 s (tens of milliseconds is usual; the bound leaves
    // room for a busy machine and stays far below the 20 s of the pattern above).
    const { dir, restore } = await planningProject('fuzz-dialect-', `set_plan x\nplan_step_complete go\nrun_in_bash_session ${'a'.repeat(28)}!\nrun_in_bash_session close\n`);
    const dialect = readFileSync(join(dir, 'protocols', 'fdc.dialect.json'), 'utf8');
    const redos = fc.constantFrom('(a+)+$', '^(a|a)*$', '(a*)*b', '(\\w+\\s?)*$', '(?:a|aa)+$').map((p) => dialect.replace('"^close$"', JSON.stringify(p)));
    const quick = async (command: Promise<number>, what: string): Promise<number> => {
      const started = performance.now();
      const code = await command;
      expect(performance.now() - started, `${what} took too long`).toBeLessThan(10_000);
      return code;
    };
    await fuzz('dialect JSON through plan lint --dialect + run plan', hostile(dialect, [...jsonMutations(dialect), redos]), RUNS, async (text) => {
      restore();
      writeFileSync(join(dir, 'protocols', 'fuzz.dialect.json'), text);
      const lint = await quick(readOnly(dir, ['plan', 'lint', 'plans/p.txt', '--dialect', 'protocols/fuzz.dialect.json']), 'plan lint');
      // run plan reads the project's dialect: the fuzzed one in its place.
      writeFileSync(join(dir, 'protocols', 'fdc.dialect.json'), text);
      const submit = await quick(refusalKeepsState(dir, ['run', 'plan', 'plans/p.txt'], (code) => code === 2), 'run plan');
      return [lint, submit];
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
