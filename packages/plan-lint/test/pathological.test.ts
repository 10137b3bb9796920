/**
 * Plans built to make lint work forever: loops nested thousands deep, globs whose regular expression
 * would backtrack exponentially. Each is answered (a finding that names the line, or the right
 * match), not timed: BENCHMARKS.md ("plan-lint on pathological plans") has the figures.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_MAX_LOOP_DEPTH, compileGlob, globToRegExp, lintPlan, matchGlob } from '../src/index.js';
import { fdc, memoryHost } from './support.js';

const HEAD = 'set_plan x\nplan_step_complete go\n';
const CLOSE = 'run_in_bash_session close\n';

function nested(depth: number, glob = 'src/*.ts'): string {
  const lines = [];
  for (let d = 0; d < depth; d++) lines.push(`${'  '.repeat(d)}for_each_file ${glob}`);
  lines.push(`${'  '.repeat(depth)}read_file {file}`);
  return `${HEAD}${lines.join('\n')}\n${CLOSE}`;
}

describe('for_each_file nesting is bounded', () => {
  const files = ['src/a.ts', 'src/b.ts'];

  test('3,000 nested loops: one loop-too-deep finding at the first loop past the limit, nothing expanded below it', () => {
    const { findings } = lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost({ 'main.plan': nested(3000) }), files, ...fdc });
    expect(findings.map((f) => `${f.ruleId}@${f.line}:${f.column}`)).toEqual([`loop-too-deep@${2 + DEFAULT_MAX_LOOP_DEPTH + 1}:${2 * DEFAULT_MAX_LOOP_DEPTH + 1}`]);
    expect(findings[0]!.message).toBe(
      `for_each_file nested ${DEFAULT_MAX_LOOP_DEPTH + 1} deep: at most ${DEFAULT_MAX_LOOP_DEPTH} levels are checked (each level multiplies the steps); this loop and everything inside it are unchecked. Flatten the loops or move the inner ones into a sub-plan`,
    );
  });

  test('at the limit a plan lints in full; one level more is an error; maxLoopDepth sets the limit', () => {
    const lint = (depth: number, maxLoopDepth?: number) =>
      lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost({ 'main.plan': nested(depth) }), files, ...fdc, ...(maxLoopDepth ? { maxLoopDepth } : {}) }).findings.map((f) => f.ruleId);
    expect(lint(DEFAULT_MAX_LOOP_DEPTH)).toEqual([]);
    expect(lint(DEFAULT_MAX_LOOP_DEPTH + 1)).toEqual(['loop-too-deep']);
    expect(lint(3, 2)).toEqual(['loop-too-deep']);
    expect(lint(2, 2)).toEqual([]);
  });

  test('a deep loop in a sub-plan is reported in the sub-plan, with its call chain', () => {
    const plans = { 'main.plan': `${HEAD}call_plan sub.plan\n${CLOSE}`, 'sub.plan': nested(40) };
    const { findings } = lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost(plans), files, ...fdc });
    expect(findings.map((f) => [f.ruleId, f.file, f.chain])).toEqual([['loop-too-deep', 'sub.plan', ['main.plan', 'sub.plan']]]);
  });
});

describe('glob matching never backtracks', () => {
  test.each([
    ['**/'.repeat(30) + 'x', `${'a/'.repeat(40)}y`, false],
    ['**/'.repeat(30) + 'y', `${'a/'.repeat(40)}y`, true],
    ['*a'.repeat(30) + 'b', 'a'.repeat(60), false],
    ['*a'.repeat(30), 'a'.repeat(60), true],
    [`${'?'.repeat(50)}*[!x]`, 'b'.repeat(5000), true],
  ])('%#: a glob whose regular expression would backtrack catastrophically still answers', (glob, path, expected) => {
    expect(compileGlob(glob).test(path)).toBe(expected);
  });

  test('compileGlob agrees with the regular expression on ordinary globs (property)', () => {
    const part = fc.constantFrom('*', '**', '?', '[ab]', '[!a]', '[a-c]', 'a', 'b', '.', '/', '.ts', 'src', '[', ']', '\\', '(', '+', '$');
    const segment = fc.array(fc.constantFrom('a', 'b', 'c', '.ts', 'src', 'x'), { minLength: 0, maxLength: 3 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), fc.array(segment, { minLength: 1, maxLength: 4 }), (parts, segments) => {
        const glob = parts.join('');
        const path = segments.join('/');
        return compileGlob(glob).test(path) === globToRegExp(glob).test(path);
      }),
      { numRuns: 3000 },
    );
  });

  test('matchGlob uses it: a pathological glob in a plan is linted, not hung on', () => {
    expect(matchGlob('**/'.repeat(40) + 'z.ts', ['a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u.ts', 'a/z.ts'])).toEqual(['a/z.ts']);
    const plan = `${HEAD}for_each_file ${'*a'.repeat(40)}b\n  read_file {file}\n${CLOSE}`;
    const { findings } = lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost({ 'main.plan': plan }), files: ['a'.repeat(80)], ...fdc });
    expect(findings.map((f) => f.ruleId)).toEqual(['empty-glob']);
  });
});
