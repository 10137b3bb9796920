import { describe, expect, test } from 'vitest';
import { CALL_STEPS, globToRegExp, lintPlan, listView, loadDialect, matchGlob, type FileView, type LintOptions } from '../src/index.js';
import { brief, fdc, memoryHost } from './support.js';

const HEAD = 'set_plan x\nplan_step_complete go\n';
const CLOSE = 'run_in_bash_session close\n';

function lint(plans: Record<string, string>, extra: Partial<LintOptions> = {}) {
  return lintPlan({ entry: 'main.plan', root: '/project', host: memoryHost(plans), files: ['src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'docs/x.md'], ...fdc, ...extra }).findings;
}

describe('glob matcher', () => {
  test.each([
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/lib/c.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/lib/deep/c.ts', true],
    ['**', 'any/thing', true],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['src/[ab].ts', 'src/b.ts', true],
    ['src/[!ab].ts', 'src/a.ts', false],
    ['src/[a-c].ts', 'src/c.ts', true],
    ['a.b', 'axb', false],
  ])('%s vs %s -> %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });

  test('matches are sorted', () => {
    expect(matchGlob('**/*.ts', ['z.ts', 'a/b.ts', 'm.ts'])).toEqual(['a/b.ts', 'm.ts', 'z.ts']);
  });
});

describe('simulated file system', () => {
  /** A view of a tree that counts what lint asks: a real tree is probed per path, listed only for globs. */
  function countingView(files: string[]): FileView & { asked: string[]; lists: number } {
    const inner = listView(files);
    const view = {
      asked: [] as string[],
      lists: 0,
      exists: (p: string) => {
        view.asked.push(p);
        return inner.exists(p);
      },
      list: () => {
        view.lists++;
        return inner.list();
      },
    };
    return view;
  }

  test('a FileView is asked only about the paths the plan names, and listed only for a glob', () => {
    const view = countingView(['src/a.ts', 'src/b.ts', 'docs/x.md']);
    const plain = lint({ 'main.plan': `${HEAD}read_file src/a.ts\nread_file src/missing.ts\ncreate_file_with_block src/a.ts\ndelete_file docs/x.md\nread_file docs/x.md\n${CLOSE}` }, { files: view });
    expect(plain.map((f) => `${f.ruleId}:${f.line}`)).toEqual(['file-not-found:4', 'file-exists:5', 'file-not-found:7']);
    expect(view.lists).toBe(0);
    expect(new Set(view.asked)).toEqual(new Set(['src/a.ts', 'src/missing.ts', 'docs/x.md']));
    // The same plan against the same files as a list gives the same findings.
    expect(lint({ 'main.plan': `${HEAD}read_file src/a.ts\nread_file src/missing.ts\ncreate_file_with_block src/a.ts\ndelete_file docs/x.md\nread_file docs/x.md\n${CLOSE}` }, { files: ['src/a.ts', 'src/b.ts', 'docs/x.md'] })).toEqual(plain);
    // A glob lists the tree once, and sees what the plan did before it.
    const globbed = countingView(['src/a.ts', 'src/b.ts']);
    const findings = lint({ 'main.plan': `${HEAD}delete_file src/a.ts\ncreate_file_with_block src/c.ts\nfor_each_file src/*.ts\n  read_file {file}\nfor_each_file src/*.ts\n  read_file {file}\n${CLOSE}` }, { files: globbed });
    expect(findings).toEqual([]);
    expect(globbed.lists).toBe(1);
  });


  test('for_each_file expands against the state at that point: created files are included', () => {
    const findings = lint({ 'main.plan': `${HEAD}create_file_with_block src/new.ts\nfor_each_file src/*.ts\n  create_file_with_block {file}.bak\n  read_file {file}.bak\n${CLOSE}` });
    expect(findings).toEqual([]);
  });

  test('the block is checked per matched file with {file} substituted', () => {
    const findings = lint({ 'main.plan': `${HEAD}delete_file src/b.ts\nfor_each_file src/**/*.ts\n  read_file {file}.orig\n${CLOSE}` });
    expect(findings.map((f) => [f.ruleId, f.line, f.message])).toEqual([
      ['file-not-found', 5, 'read_file: "src/a.ts.orig" does not exist at this point of the plan'],
      ['file-not-found', 5, 'read_file: "src/lib/c.ts.orig" does not exist at this point of the plan'],
    ]);
  });

  test('moves: the source is gone, the destination exists; moving onto a file is file-exists', () => {
    const findings = lint({ 'main.plan': `${HEAD}rename_file src/a.ts src/z.ts\nread_file src/z.ts\nread_file src/a.ts\nrename_file src/z.ts src/b.ts\n${CLOSE}` });
    expect(brief(findings, 'main.plan')).toEqual(['file-not-found@5:11', 'file-exists@6:22']);
  });

  test('paths are normalised: ./src/a.ts is src/a.ts', () => {
    expect(lint({ 'main.plan': `${HEAD}read_file ./src//a.ts\n${CLOSE}` })).toEqual([]);
  });
});

describe('call_plan', () => {
  test('registry first, then path', () => {
    const plans = {
      'main.plan': `${HEAD}call_plan helper\n${CLOSE}`,
      helper: `${HEAD}read_file src/nope.ts\n${CLOSE}`,
      'plans/helper.plan': `${HEAD}read_file src/a.ts\n${CLOSE}`,
    };
    // Registered: the registry's path wins over a file literally called "helper".
    expect(lint(plans, { registry: { helper: 'plans/helper.plan' } })).toEqual([]);
    // Not registered: falls back to the path "helper".
    expect(brief(lint(plans), 'main.plan')).toEqual(['file-not-found@helper:3:11']);
  });

  test('a sub-plan starts from the FSM start state and its effects apply to the caller afterwards', () => {
    const plans = {
      'main.plan': `${HEAD}call_plan sub.plan\nread_file src/made.ts\ncreate_file_with_block src/made.ts\n${CLOSE}`,
      'sub.plan': `${HEAD}create_file_with_block src/made.ts\n${CLOSE}`,
    };
    expect(brief(lint(plans), 'main.plan')).toEqual(['file-exists@5:24']);
  });

  test('a sub-plan that skips set_plan is rejected in its own run', () => {
    const plans = { 'main.plan': `${HEAD}call_plan sub.plan\n${CLOSE}`, 'sub.plan': `read_file src/a.ts\n${CLOSE}` };
    const [f] = lint(plans);
    expect(f).toMatchObject({ ruleId: 'fsm-adherence', file: 'sub.plan', line: 1, chain: ['main.plan', 'sub.plan'] });
    expect(f!.message).toContain('not allowed in state IDLE; expected one of: set_plan');
  });

  test('outside the root: .., absolute, drive letters, registry entries', () => {
    const plans = { 'main.plan': `${HEAD}call_plan ../x.plan\ncall_plan a/../../x.plan\ncall_plan /abs.plan\ncall_plan C:\\x.plan\ncall_plan bad\n${CLOSE}` };
    expect(lint(plans, { registry: { bad: '/etc/passwd' } }).map((f) => [f.ruleId, f.line])).toEqual([
      ['call-plan-outside-root', 3],
      ['call-plan-outside-root', 4],
      ['call-plan-outside-root', 5],
      ['call-plan-outside-root', 6],
      ['call-plan-outside-root', 7],
    ]);
  });

  test('a __proto__ target is never looked up in the registry', () => {
    const findings = lint({ 'main.plan': `${HEAD}call_plan __proto__\n${CLOSE}` }, { registry: {} });
    expect(findings.map((f) => f.ruleId)).toEqual(['call-plan-not-found']);
  });

  test('a cycle is reported with its path', () => {
    const plans = {
      'main.plan': `${HEAD}call_plan a.plan\n${CLOSE}`,
      'a.plan': `${HEAD}call_plan b.plan\n${CLOSE}`,
      'b.plan': `${HEAD}call_plan a.plan\n${CLOSE}`,
    };
    const findings = lint(plans);
    expect(findings.map((f) => [f.ruleId, f.file, f.line, f.message])).toEqual([['plan-cycle', 'b.plan', 3, 'plan cycle: a.plan -> b.plan -> a.plan']]);
    expect(findings[0]!.chain).toEqual(['main.plan', 'a.plan', 'b.plan']);
  });

  test('a plan calling itself', () => {
    const findings = lint({ 'main.plan': `${HEAD}call_plan main.plan\n${CLOSE}` });
    expect(findings.map((f) => f.message)).toEqual(['plan cycle: main.plan -> main.plan']);
  });

  function chainOf(n: number): Record<string, string> {
    const plans: Record<string, string> = {};
    for (let i = 0; i < n; i++) plans[i === 0 ? 'main.plan' : `p${i}.plan`] = `${HEAD}${i + 1 < n ? `call_plan p${i + 1}.plan\n` : ''}${CLOSE}`;
    return plans;
  }

  test('depth 10 (the default) is allowed; the 11th frame is recursion-depth with the chain from fsm-core', () => {
    expect(lint(chainOf(10))).toEqual([]);
    const findings = lint(chainOf(11));
    expect(findings.map((f) => [f.ruleId, f.file, f.line])).toEqual([['recursion-depth', 'p9.plan', 3]]);
    expect(findings[0]!.chain).toEqual(['main.plan', ...Array.from({ length: 10 }, (_, i) => `p${i + 1}.plan`)]);
    expect(findings[0]!.message).toBe(`call depth limit of 10 exceeded: ${findings[0]!.chain!.join(' -> ')}`);
  });

  test('maxDepth is configurable', () => {
    expect(lint(chainOf(3), { maxDepth: 2 }).map((f) => [f.ruleId, f.file])).toEqual([['recursion-depth', 'p1.plan']]);
  });

  test('depth-10 chains of 1,000-line plans lint without overflowing', () => {
    const body = 'read_file src/a.ts\n'.repeat(1000);
    const plans: Record<string, string> = {};
    for (let i = 0; i < 10; i++) plans[i === 0 ? 'main.plan' : `p${i}.plan`] = `${HEAD}${body}${i < 9 ? `call_plan p${i + 1}.plan\n` : ''}${CLOSE}`;
    expect(lint(plans)).toEqual([]);
  });
});

describe('dialects', () => {
  test('the research dialect drives the research FSM', async () => {
    const { loadProtocol } = await import('./support.js');
    const research = loadProtocol('research');
    const text = 'set_plan topic\ngoogle_search x\nread_file docs/x.md\nplan_step_complete gathered\ncreate_file_with_block report.md\nrun_in_bash_session close\n';
    expect(lintPlan({ entry: 'r.plan', root: '/p', host: memoryHost({ 'r.plan': text }), files: ['docs/x.md'], ...research }).findings).toEqual([]);
    const bad = 'set_plan topic\nplan_step_complete g\nrun_in_bash_session close\n';
    expect(lintPlan({ entry: 'r.plan', root: '/p', host: memoryHost({ 'r.plan': bad }), files: [], ...research }).findings.map((f) => f.ruleId)).toEqual(['fsm-adherence']);
  });

  test('loadDialect reports every problem with a pointer', () => {
    const { problems, dialect } = loadDialect(
      {
        id: 'x',
        fsm: 'x.json',
        close: 'nope_op',
        extra: 1,
        commands: { a: { symbol: 'read_op', effect: 'read' }, b: { symbol: 'zz_op' }, call_plan: { symbol: 'read_op' }, m: { symbol: 'move_op', effect: 'move', path: 0 }, w: { symbol: 'tool_exec', when: [{ argsMatch: '(', symbol: 'close_op' }] } },
      },
      fdc.machine,
    );
    expect(dialect).toBeUndefined();
    expect(problems.map((p) => p.pointer)).toEqual(['/extra', '/commands/a', '/commands/b/symbol', '/commands/call_plan', '/commands/m', '/commands/w/when/0/argsMatch', '/close', '/close']);
  });

  test('an argsMatch that could backtrack catastrophically is refused at its pointer; the shipped patterns load', () => {
    // Found by the CLI fuzz test: `(a+)+$` against `run_in_bash_session aaaa...a!` (40 "a"s) kept
    // `ratchet plan lint` busy for minutes (38 s with 30), once per plan line of that command.
    const dialect = (argsMatch: string): unknown => ({ id: 'x', fsm: 'x.json', close: 'close_op', commands: { finish: { symbol: 'close_op' }, run_in_bash_session: { symbol: 'tool_exec', when: [{ argsMatch, symbol: 'close_op' }] } } });
    for (const pattern of ['(a+)+$', '^(a|a)*$', '(.*a){20}', '(\\w+\\s?)*$', '(a*)*b']) {
      const { problems, dialect: loaded } = loadDialect(dialect(pattern), fdc.machine);
      expect(loaded, pattern).toBeUndefined();
      expect(problems, pattern).toEqual([{ pointer: '/commands/run_in_bash_session/when/0/argsMatch', message: expect.stringMatching(/^unsafe regular expression: it could backtrack catastrophically/) as unknown }]);
    }
    for (const pattern of ['^close$', '^(close|exit)$', '^git push.*--force', '\\bclose\\b']) expect(loadDialect(dialect(pattern), fdc.machine).problems, pattern).toEqual([]);
  });

  test('__proto__ as a command name is refused', () => {
    const raw = JSON.parse('{"id":"x","fsm":"f","close":"close_op","commands":{"__proto__":{"symbol":"close_op"},"c":{"symbol":"close_op"}}}') as unknown;
    expect(loadDialect(raw).problems.map((p) => p.pointer)).toEqual(['/commands/__proto__']);
  });
});

describe('host refusals', () => {
  test('a sub-plan the host refuses (it leads out of the root on disk) is call-plan-outside-root at the call site', () => {
    const host = { readPlan: (rel: string) => (rel === 'main.plan' ? `${HEAD}call_plan link.plan\n${CLOSE}` : rel === 'link.plan' ? { refused: 'link.plan resolves to /etc/x.plan, outside the project root' } : undefined) };
    const findings = lintPlan({ entry: 'main.plan', root: '/project', host, files: [], ...fdc }).findings;
    expect(findings.map((f) => [f.ruleId, f.file, f.line, f.column, f.message])).toEqual([
      ['call-plan-outside-root', 'main.plan', 3, 11, 'call_plan "link.plan": link.plan resolves to /etc/x.plan, outside the project root'],
    ]);
  });

  test('a refused entry plan is one finding', () => {
    const findings = lintPlan({ entry: 'main.plan', root: '/project', host: { readPlan: () => ({ refused: 'no' }) }, files: [], ...fdc }).findings;
    expect(findings.map((f) => f.ruleId)).toEqual(['call-plan-outside-root']);
  });
});

describe('plan-too-large: a budget of simulated steps', () => {
  const files = Array.from({ length: 100 }, (_, i) => `src/f${i}.ts`);

  test('nested loops over a big tree stop at the budget with one finding where it ran out', () => {
    // 100^4 = 100 million iterations: without a bound this lint would not finish.
    const plan = `${HEAD}for_each_file src/*.ts\n  for_each_file src/*.ts\n    for_each_file src/*.ts\n      for_each_file src/*.ts\n        read_file {file}\n${CLOSE}`;
    const findings = lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost({ 'main.plan': plan }), files, ...fdc, maxSteps: 50_000 }).findings;
    expect(findings.map((f) => [f.ruleId, f.line])).toEqual([['plan-too-large', 7]]);
    expect(findings[0]!.message).toMatch(/^simulating this plan takes more than 50,000 steps beyond its own lines/);
  });

  test('a call_plan fan-out (each plan calls the next ten times, ten deep) stops at the default budget', () => {
    const plans: Record<string, string> = {};
    for (let i = 0; i < 10; i++) plans[i === 0 ? 'main.plan' : `p${i}.plan`] = `${HEAD}${i < 9 ? `call_plan p${i + 1}.plan\n`.repeat(10) : 'read_file src/f1.ts\n'}${CLOSE}`;
    const findings = lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost(plans), files, ...fdc }).findings;
    expect(findings.map((f) => f.ruleId)).toEqual(['plan-too-large']);
    expect(findings[0]!.chain?.[0]).toBe('main.plan');
  }, 60_000); // a million simulated steps: under a second, longer on a loaded machine

  test('a plan within the budget is linted in full; the budget counts every expanded step beyond the plan\'s own lines', () => {
    const plan = `${HEAD}for_each_file src/*.ts\n  read_file {file}\n${CLOSE}`;
    // 2 + 1 (the loop) + 100 iterations x (1 body line + 1 iteration) + 1 = 204 steps, less the plan's own 5 lines.
    const lint = (maxSteps: number) => lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost({ 'main.plan': plan }), files, ...fdc, maxSteps }).findings.map((f) => f.ruleId);
    expect(lint(199)).toEqual([]);
    expect(lint(198)).toEqual(['plan-too-large']);
  });

  test('a call counts as CALL_STEPS; a long plan without loops or calls always lints in full', () => {
    const plans = { 'main.plan': `${HEAD}call_plan sub.plan\n${CLOSE}`, 'sub.plan': `${HEAD}${CLOSE}` };
    // main's 4 lines are free; the call costs CALL_STEPS (its own line included), the sub-plan's 3 lines 3.
    const lint = (maxSteps: number, p: Record<string, string> = plans) => lintPlan({ entry: 'main.plan', root: '/p', host: memoryHost(p), files, ...fdc, maxSteps }).findings.map((f) => f.ruleId);
    expect(lint(CALL_STEPS - 1 + 3)).toEqual([]);
    expect(lint(CALL_STEPS - 1 + 2)).toEqual(['plan-too-large']);
    const long = `${HEAD}${'read_file src/f1.ts\n'.repeat(5000)}${CLOSE}`;
    expect(lint(1, { 'main.plan': long })).toEqual([]);
  });
});
