import { describe, expect, it } from 'vitest';
import {
  PlanStackError,
  RecursionDepthError,
  advance,
  createSession,
  currentStep,
  expandSteps,
  moveTo,
  startPlan,
  type PlanStackOptions,
  type Session,
} from '../src/index.js';
import { parsePlan } from '@ratchet/plan-lint';
import { host } from './support.js';

function planning(options: PlanStackOptions): Session {
  let s = createSession('T', options);
  for (const d of ['ORIENTING', 'PLANNING']) s = moveTo(s, d, options);
  return s;
}

/** Run every step to the end, collecting `planPath: line`. */
function runAll(s: Session, options: PlanStackOptions): { lines: string[]; session: Session } {
  const lines: string[] = [];
  for (let step = currentStep(s); step !== undefined; step = currentStep(s)) {
    lines.push(`${step.planPath}: ${step.line}`);
    s = advance(s, {}, options);
  }
  return { lines, session: s };
}

describe('plan stack', () => {
  it('call_plan advances the parent, pushes the sub-plan, pops at its end (nested)', () => {
    const o = host(
      {
        'root.plan': 'read a\ncall_plan mid\nwrite b\n',
        'plans/mid.plan': 'read m1\ncall_plan plans/leaf.plan\nread m2\n',
        'plans/leaf.plan': 'read l1\n',
      },
      { registry: { mid: 'plans/mid.plan' } },
    );
    let s = startPlan(planning(o), 'root.plan', o);
    expect(s.state).toBe('EXECUTING');
    expect(currentStep(s)).toEqual({ line: 'read a', planPath: 'root.plan', index: 0, chain: ['root.plan'] });
    s = advance(s, {}, o);
    // The parent moved past the call before the sub-plan was pushed.
    expect(s.stack.map((f) => [f.planPath, f.current])).toEqual([
      ['root.plan', 2],
      ['plans/mid.plan', 0],
    ]);
    s = advance(s, {}, o);
    expect(currentStep(s)?.chain).toEqual(['root.plan', 'plans/mid.plan', 'plans/leaf.plan']);
    const { lines, session } = runAll(s, o);
    expect(lines).toEqual(['plans/leaf.plan: read l1', 'plans/mid.plan: read m2', 'root.plan: write b']);
    expect(session.state).toBe('AWAITING_ANALYSIS');
    expect(session.stack).toEqual([]);
    expect(session.history.map((h) => h.trigger).slice(-2)).toEqual(['step_complete', 'plan_complete']);
  });

  it('a plan starting with call_plan and an empty sub-plan are handled', () => {
    const o = host({ 'r.plan': 'call_plan e.plan\ncall_plan s.plan\n', 'e.plan': '# nothing\n', 's.plan': 'read x\n' });
    const s = startPlan(planning(o), 'r.plan', o);
    expect(currentStep(s)?.chain).toEqual(['r.plan', 's.plan']);
    expect(runAll(s, o).session.state).toBe('AWAITING_ANALYSIS');
  });

  it('an empty root plan completes at once', () => {
    const o = host({ 'r.plan': '\n' });
    const s = startPlan(planning(o), 'r.plan', o);
    expect(s.history.map((h) => h.trigger).slice(-2)).toEqual(['plan_accepted', 'plan_complete']);
  });

  it('holds the depth limit at run time and names the chain', () => {
    const o = host({ 'a.plan': 'read x\ncall_plan a.plan\n' }, { maxDepth: 3 });
    let s = startPlan(planning(o), 'a.plan', o);
    s = advance(s, {}, o); // depth 2
    s = advance(s, {}, o); // depth 3
    expect(s.stack).toHaveLength(3);
    let err: unknown;
    try {
      advance(s, {}, o);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecursionDepthError);
    expect((err as RecursionDepthError).chain).toEqual(['a.plan', 'a.plan', 'a.plan', 'a.plan']);
    expect((err as Error).message).toBe('call depth limit of 3 exceeded: a.plan -> a.plan -> a.plan -> a.plan');
    expect(s.stack).toHaveLength(3); // the input session is untouched
  });

  it('the default depth limit is 10', () => {
    const o = host({ 'a.plan': 'call_plan a.plan\n' });
    expect(() => startPlan(planning(o), 'a.plan', o)).toThrow(/call depth limit of 10 exceeded: (a\.plan -> ){10}a\.plan$/);
  });

  it('binds the Jules nested loop variables: {file1} the outer loop, {file2} the inner, {file} the innermost', () => {
    const text = 'for_each_file src/*.py\n  for_each_file tests/*.py\n    compare {file1} {file2} {file}\n';
    const { plan, diagnostics } = parsePlan(text, 'p.plan');
    expect(diagnostics).toEqual([]);
    expect(expandSteps(plan.body, ['src/a.py', 'tests/t1.py', 'tests/t2.py'])).toEqual(['compare src/a.py tests/t1.py tests/t1.py', 'compare src/a.py tests/t2.py tests/t2.py']);
  });

  it('runs a plan written in the block grammar as its one-line form', () => {
    const text = 'set_plan\nRename it\n---\nrun_in_bash_session\npython tooling/fdc_cli.py close --task-id T\n';
    const o = host({ 'b.plan': text });
    expect(runAll(startPlan(planning(o), 'b.plan', o), o).lines).toEqual(['b.plan: set_plan Rename it', 'b.plan: run_in_bash_session python tooling/fdc_cli.py close --task-id T']);
  });

  it('expands for_each_file against the file list, {file} substituted, sorted', () => {
    const text = 'read README.md\nfor_each_file src/*.ts\n  edit {file}\n  for_each_file {file}.d/*\n    lint {file}\n  call_plan per-file.plan\nrun tests\n';
    const { plan, diagnostics } = parsePlan(text, 'p.plan');
    expect(diagnostics).toEqual([]);
    const files = ['src/b.ts', 'src/a.ts', 'docs/x.md', 'src/a.ts.d/one'];
    expect(expandSteps(plan.body, files)).toEqual([
      'read README.md',
      'edit src/a.ts',
      'lint src/a.ts.d/one',
      'call_plan per-file.plan',
      'edit src/b.ts',
      'call_plan per-file.plan',
      'run tests',
    ]);
    const o = host({ 'p.plan': text, 'per-file.plan': 'check\n' }, { files });
    expect(runAll(startPlan(planning(o), 'p.plan', o), o).lines).toEqual([
      'p.plan: read README.md',
      'p.plan: edit src/a.ts',
      'p.plan: lint src/a.ts.d/one',
      'per-file.plan: check',
      'p.plan: edit src/b.ts',
      'per-file.plan: check',
      'p.plan: run tests',
    ]);
  });

  it('a failed step goes to ERROR via step_failed; reorient returns to ORIENTING', () => {
    const o = host({ 'r.plan': 'read a\nwrite b\n' });
    let s = startPlan(planning(o), 'r.plan', o);
    s = advance(s, { failed: true, message: 'exit code 1' }, o);
    expect(s.state).toBe('ERROR');
    expect(s.history.at(-1)).toMatchObject({ from: 'EXECUTING', trigger: 'step_failed', to: 'ERROR', message: 'exit code 1' });
    expect(currentStep(s)?.line).toBe('read a'); // kept for inspection
    s = moveTo(s, 'ORIENTING', o);
    expect(s.history.at(-1)?.trigger).toBe('reorient');
    expect(s.state).toBe('ORIENTING');
  });

  it('refuses missing plans, syntax errors, escaping calls, and steps outside a plan', () => {
    const o = host({ 'r.plan': 'call_plan nope.plan\n', 'bad.plan': '\tread x\n', 'esc.plan': 'call_plan ../x.plan\n' });
    const p = planning(o);
    expect(() => startPlan(p, 'r.plan', o)).toThrow(PlanStackError);
    expect(() => startPlan(p, 'r.plan', o)).toThrow('no plan file "nope.plan" (call chain: r.plan -> nope.plan)');
    expect(() => startPlan(p, 'bad.plan', o)).toThrow(/bad\.plan:1:1: .*\[tab-indentation\]/);
    expect(() => startPlan(p, 'esc.plan', o)).toThrow(expect.objectContaining({ code: 'unresolved-call' }) as Error);
    expect(() => advance(p, {}, o)).toThrow(expect.objectContaining({ code: 'no-plan-running' }) as Error);
    expect(p.state).toBe('PLANNING');
  });

  it('a sub-plan the host refuses (it leads out of the project on disk) is unresolved-call, the session unchanged', () => {
    const o = host({ 'r.plan': 'read a\ncall_plan link.plan\n' }, { readPlan: (p) => (p === 'r.plan' ? 'read a\ncall_plan link.plan\n' : p === 'link.plan' ? { refused: 'link.plan resolves to /etc/x, outside the project root' } : undefined) });
    const s = startPlan(planning(o), 'r.plan', o);
    let err: unknown;
    try {
      advance(s, {}, o);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlanStackError);
    expect(err).toMatchObject({ code: 'unresolved-call', chain: ['r.plan', 'link.plan'] });
    expect((err as Error).message).toBe('link.plan resolves to /etc/x, outside the project root (call chain: r.plan -> link.plan)');
    expect(currentStep(s)?.line).toBe('read a');
  });

  it('a plan whose loops expand past maxSteps is plan-too-large (not a process out of memory), the session unchanged', () => {
    const files = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`);
    const text = 'for_each_file src/*.ts\n  for_each_file src/*.ts\n    for_each_file src/*.ts\n      for_each_file src/*.ts\n        read {file}\n';
    const o = host({ 'big.plan': text }, { files, maxSteps: 10_000 });
    const p = planning(o);
    expect(() => startPlan(p, 'big.plan', o)).toThrow(expect.objectContaining({ code: 'plan-too-large' }) as Error);
    expect(() => startPlan(p, 'big.plan', o)).toThrow('big.plan: the plan expands to more than 10,000 steps (for_each_file loops multiply) (call chain: big.plan)');
    // Loops of loops without a command in them count too.
    expect(() => expandSteps(parsePlan('for_each_file src/*.ts\n  for_each_file src/*.ts\n    for_each_file src/*.ts\n      for_each_file x\n        read y\n', 'p').plan.body, files, undefined, 10_000)).toThrow(RangeError);
    expect(p.state).toBe('PLANNING');
    // Within the limit: every line.
    expect(expandSteps(parsePlan('for_each_file src/*.ts\n  read {file}\n', 'p').plan.body, files, undefined, 101)).toHaveLength(50);
    expect(() => expandSteps(parsePlan('for_each_file src/*.ts\n  read {file}\n', 'p').plan.body, files, undefined, 100)).toThrow(RangeError);
  });

  it('startPlan outside PLANNING is an illegal move', () => {
    const o = host({ 'r.plan': 'read a\n' });
    expect(() => startPlan(createSession('T', o), 'r.plan', o)).toThrow(/not allowed in state "START"; legal triggers: begin_task/);
  });
});
