import { describe, expect, test } from 'vitest';
import { ROOT_FRAME, childFrame, graftExpansion, lintPlan, type LintOptions, type PlanExpansion } from '../src/index.js';
import { fdc, memoryHost } from './support.js';

const HEAD = 'set_plan x\nplan_step_complete go\n';
const CLOSE = 'run_in_bash_session close\n';
const FILES = ['src/a.ts', 'src/b.ts', 'src/old.ts', 'docs/x.md'];

function expand(plans: Record<string, string>, extra: Partial<LintOptions> = {}): PlanExpansion | undefined {
  const { findings, expansion } = lintPlan({ entry: 'main.plan', root: '/project', host: memoryHost(plans), files: FILES, ...fdc, expansion: true, ...extra });
  expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  return expansion;
}

describe('lint exposes what every for_each_file iterates in its simulated file system', () => {
  test('files the plan created are iterated, files it deleted or moved away are not, in sorted order', () => {
    const plan = `${HEAD}create_file_with_block src/new.ts\ndelete_file src/old.ts\nrename_file src/b.ts src/c.ts\nfor_each_file src/*.ts\n  read_file {file}\n${CLOSE}`;
    expect(expand({ 'main.plan': plan })).toEqual({ [ROOT_FRAME]: { plan: 'main.plan', loops: [['src/a.ts', 'src/c.ts', 'src/new.ts']] } });
  });

  test('each loop sees the file system at its own point of the plan, one list per loop reached', () => {
    const plan = `${HEAD}for_each_file src/*.ts\n  read_file {file}\ncreate_file_with_block src/new.ts\nfor_each_file src/*.ts\n  read_file {file}\n${CLOSE}`;
    expect(expand({ 'main.plan': plan })?.[ROOT_FRAME]?.loops).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/old.ts'],
      ['src/a.ts', 'src/b.ts', 'src/new.ts', 'src/old.ts'],
    ]);
  });

  test('a nested loop is expanded once per outer iteration, {file} bound, seeing what earlier iterations created', () => {
    // Each iteration creates a snapshot of its file; the inner loop then finds the snapshots made so far.
    const plan = `${HEAD}for_each_file src/[ab].ts\n  create_file_with_block {file}.snap\n  for_each_file src/*.snap\n    read_file {file}\n  for_each_file {file}*\n    read_file {file}\n${CLOSE}`;
    expect(expand({ 'main.plan': plan })?.[ROOT_FRAME]?.loops).toEqual([
      ['src/a.ts', 'src/b.ts'],
      ['src/a.ts.snap'],
      ['src/a.ts', 'src/a.ts.snap'],
      ['src/a.ts.snap', 'src/b.ts.snap'],
      ['src/b.ts', 'src/b.ts.snap'],
    ]);
  });

  test('a sub-plan frame is named by the steps of the calls leading to it and sees what the caller created', () => {
    // Steps of main: 0 set_plan, 1 plan_step_complete, 2 create, then per file: read_file, call_plan.
    const main = `${HEAD}create_file_with_block src/new.ts\nfor_each_file src/[an]*.ts\n  read_file {file}\n  call_plan sub.plan\n${CLOSE}`;
    const sub = `${HEAD}call_plan leaf.plan\nfor_each_file src/*.ts\n  read_file {file}\n${CLOSE}`;
    const leaf = `${HEAD}for_each_file docs/*\n  read_file {file}\n${CLOSE}`;
    const expansion = expand({ 'main.plan': main, 'sub.plan': sub, 'leaf.plan': leaf });
    const all = ['src/a.ts', 'src/b.ts', 'src/new.ts', 'src/old.ts'];
    expect(expansion).toEqual({
      [ROOT_FRAME]: { plan: 'main.plan', loops: [['src/a.ts', 'src/new.ts']] },
      '4': { plan: 'sub.plan', loops: [all] },
      '4/2': { plan: 'leaf.plan', loops: [['docs/x.md']] },
      '6': { plan: 'sub.plan', loops: [all] },
      '6/2': { plan: 'leaf.plan', loops: [['docs/x.md']] },
    });
    expect(childFrame(childFrame(ROOT_FRAME, 4), 2)).toBe('4/2');
  });

  test('unknown commands count as steps (the run serves them too); frames without loops are left out', () => {
    const main = `${HEAD}mystery_tool x\ncall_plan sub.plan\n${CLOSE}`;
    const sub = `${HEAD}for_each_file docs/*\n  read_file {file}\n${CLOSE}`;
    const { expansion } = lintPlan({ entry: 'main.plan', root: '/project', host: memoryHost({ 'main.plan': main, 'sub.plan': sub }), files: FILES, ...fdc, expansion: true });
    expect(expansion).toEqual({ '3': { plan: 'sub.plan', loops: [['docs/x.md']] } });
  });

  test('only on request: plain lint keeps no match lists', () => {
    const result = lintPlan({ entry: 'main.plan', root: '/project', host: memoryHost({ 'main.plan': `${HEAD}for_each_file src/*.ts\n  read_file {file}\n${CLOSE}` }), files: FILES, ...fdc });
    expect(result).not.toHaveProperty('expansion');
  });

  test('a glob out of the project is still refused, and expands to nothing', () => {
    const { findings, expansion } = lintPlan({ entry: 'main.plan', root: '/project', host: memoryHost({ 'main.plan': `${HEAD}for_each_file ../*\n  read_file {file}\n${CLOSE}` }), files: FILES, ...fdc, expansion: true });
    expect(findings.map((f) => f.ruleId)).toContain('path-outside-root');
    expect(expansion).toEqual({});
  });
});

describe('graftExpansion', () => {
  const loops = (plan: string): { plan: string; loops: string[][] } => ({ plan, loops: [[`${plan}.x`]] });
  test('replaces a frame and everything below it with a new expansion rooted there', () => {
    const into: PlanExpansion = { '': loops('main'), '4': loops('sub'), '4/2': loops('leaf'), '40': loops('other'), '6': loops('sub') };
    expect(graftExpansion(into, '4', { '': loops('sub2'), '1': loops('leaf2') })).toEqual({ '': loops('main'), '40': loops('other'), '6': loops('sub'), '4': loops('sub2'), '4/1': loops('leaf2') });
    // A new expansion without loops at its root removes the old root's entry too.
    expect(graftExpansion(into, '4/2', {})).toEqual({ '': loops('main'), '4': loops('sub'), '40': loops('other'), '6': loops('sub') });
    expect(graftExpansion(into, ROOT_FRAME, { '3': loops('z') })).toEqual({ '3': loops('z') });
  });
});
