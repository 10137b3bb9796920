import { readFileSync } from 'node:fs';
import { loadDefinition } from '@ratchet/fsm-core';
import { lintPlan, loadDialect, type PlanExpansion } from '@ratchet/plan-lint';
import { describe, expect, it } from 'vitest';
import { advance, createSession, currentStep, moveTo, pinPlans, sessionValidator, startPlan, type PlanChangedError, type PlanStackOptions, type Session } from '../src/index.js';
import { host } from './support.js';

function planning(options: PlanStackOptions): Session {
  let s = createSession('T', options);
  for (const d of ['ORIENTING', 'PLANNING']) s = moveTo(s, d, options);
  return s;
}

function runAll(s: Session, options: PlanStackOptions): { lines: string[]; session: Session } {
  const lines: string[] = [];
  for (let step = currentStep(s); step !== undefined; step = currentStep(s)) {
    lines.push(`${step.planPath}: ${step.line}`);
    s = advance(s, {}, options);
  }
  return { lines, session: s };
}

const protocol = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../protocols/${name}`, import.meta.url), 'utf8'));
const { machine } = loadDefinition(protocol('fdc.fsm.json'));
const { dialect } = loadDialect(protocol('fdc.dialect.json'), machine);
const HEAD = 'set_plan x\nplan_step_complete go\n';
const CLOSE = 'run_in_bash_session close\n';

describe("for_each_file runs lint's expansion", () => {
  it('a file the plan creates is iterated; a file on disk that lint did not see is not', () => {
    const main = `${HEAD}create_file_with_block src/new.ts\nfor_each_file src/*.ts\n  read_file {file}\n${CLOSE}`;
    const plans = { 'main.plan': main };
    const { findings, expansion } = lintPlan({ entry: 'main.plan', root: '/p', host: host(plans), files: ['src/a.ts'], machine: machine!, dialect: dialect!, expansion: true });
    expect(findings).toEqual([]);
    // The disk as the run would glob it: without the plan's own file, with a stray one.
    const o = host(plans, { files: ['src/a.ts', 'src/stray.ts'] });
    const { lines, session } = runAll(startPlan(planning(o), 'main.plan', { ...o, expansion }), o);
    expect(lines.filter((l) => l.includes('read_file'))).toEqual(['main.plan: read_file src/a.ts', 'main.plan: read_file src/new.ts']);
    expect(session.state).toBe('AWAITING_ANALYSIS');
    expect(session).not.toHaveProperty('expansion');
  });

  it("sub-plans and nested loops run in lint's order; the session keeps only the frames still to load", () => {
    const plans = {
      // Each iteration snapshots its file, then calls a sub-plan that reads every snapshot made so far.
      'main.plan': `${HEAD}create_file_with_block src/c.ts\nfor_each_file src/*.ts\n  create_file_with_block {file}.snap\n  call_plan sub.plan\n${CLOSE}`,
      'sub.plan': `${HEAD}for_each_file src/*.snap\n  for_each_file {file}*\n    read_file {file}\n${CLOSE}`,
    };
    const { findings, expansion } = lintPlan({ entry: 'main.plan', root: '/p', host: host(plans), files: ['src/a.ts', 'src/b.ts'], machine: machine!, dialect: dialect!, expansion: true });
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    const o = host(plans, { files: [] }); // globbing would find nothing: every iteration below is lint's
    let s = startPlan(planning(o), 'main.plan', { ...o, expansion });
    expect(Object.keys(s.expansion!).sort()).toEqual(['4', '6', '8']);
    const served: string[] = [];
    for (let step = currentStep(s); step !== undefined; step = currentStep(s)) {
      if (step.line.startsWith('read_file')) served.push(step.line.slice('read_file '.length));
      s = advance(s, {}, o);
      // Each loaded frame leaves the session; what is stored stays a valid session.
      expect(sessionValidator.safeParse(s).success).toBe(true);
    }
    expect(served).toEqual(['src/a.ts.snap', 'src/a.ts.snap', 'src/b.ts.snap', 'src/a.ts.snap', 'src/b.ts.snap', 'src/c.ts.snap']);
    // In lint's order: per call, the inner lists of its outer loop's iterations.
    const inner = ['4', '6', '8'].flatMap((k) => expansion![k]!.loops.slice(1).flat());
    expect(served).toEqual(inner);
    expect(s).not.toHaveProperty('expansion');
  });

  it('a frame whose loops do not match the expansion is refused (expansion-mismatch), the session unchanged', () => {
    const plans = { 'main.plan': 'read x\ncall_plan sub.plan\n', 'sub.plan': 'for_each_file src/*.ts\n  read {file}\n', 'two.plan': 'for_each_file a/*\n  read {file}\nfor_each_file b/*\n  read {file}\n' };
    const o = host(plans, { files: ['src/a.ts'] });
    const expansion: PlanExpansion = { '1': { plan: 'other.plan', loops: [['src/a.ts']] } };
    const s = startPlan(planning(o), 'main.plan', { ...o, expansion });
    expect(() => advance(s, {}, o)).toThrow(expect.objectContaining({ code: 'expansion-mismatch', chain: ['main.plan', 'sub.plan'] }) as Error);
    expect(() => startPlan(planning(o), 'two.plan', { ...o, expansion: { '': { plan: 'two.plan', loops: [['a/x']] } } })).toThrow(/two\.plan: it reaches more for_each_file lines than lint expanded \(1\)/);
    expect(() => startPlan(planning(o), 'sub.plan', { ...o, expansion: { '': { plan: 'sub.plan', loops: [['src/a.ts'], ['src/b.ts']] } } })).toThrow(/it reaches 1 for_each_file line\(s\), lint expanded 2/);
    // A session edited by hand cannot smuggle in a path out of the project.
    for (const bad of ['../etc/passwd', '/etc/passwd', 'src/../../x'])
      expect(() => startPlan(planning(o), 'sub.plan', { ...o, expansion: { '': { plan: 'sub.plan', loops: [[bad]] } } })).toThrow(expect.objectContaining({ code: 'expansion-mismatch' }) as Error);
    // A session from before expansions (none stored) globs the files, as it always did.
    expect(runAll(startPlan(planning(o), 'sub.plan', o), o).lines).toEqual(['sub.plan: read src/a.ts']);
  });

  it('a changed sub-plan names the frame position its new expansion is grafted at', () => {
    const plans: Record<string, string> = { 'main.plan': 'read x\ncall_plan sub.plan\n', 'sub.plan': 'read y\n' };
    const o = host(plans);
    const pins = pinPlans('main.plan', o);
    const s = startPlan(planning(o), 'main.plan', { ...o, pins, expansion: {} });
    plans['sub.plan'] = 'read z\n';
    expect(() => advance(s, {}, { ...o, pins })).toThrow(expect.objectContaining({ at: '1' }) as PlanChangedError);
  });
});
