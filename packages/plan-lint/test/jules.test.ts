/**
 * Plans as the original Jules toolchain wrote them lint clean with the bundled FDC dialect, and
 * its block grammar is read by the same parser (fixtures: test/fixtures/jules/).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDefinition } from '@ratchet/fsm-core';
import { bindPlaceholders, formatPlan, isBlockGrammarPlan, lintPlan, loadDialect, parsePlan, planDirectives } from '../src/index.js';
import { brief, fdc, memoryHost } from './support.js';

const JULES = fileURLToPath(new URL('./fixtures/jules/', import.meta.url));
const read = (rel: string): string => readFileSync(`${JULES}${rel}`, 'utf8');
const FILES = ['src/a.py', 'src/util.py', 'tests/test_a.py', 'tests/test_b.py'];

function lint(plans: Record<string, string>, entry = 'plan.txt', extra: Partial<Parameters<typeof lintPlan>[0]> = {}): string[] {
  return brief(lintPlan({ entry, root: JULES, host: memoryHost(plans), files: FILES, ...fdc, ...extra }).findings, entry);
}

describe('plans as the original wrote them, bundled FDC dialect', () => {
  it('the line-form fixture (FSM directive, nested {file1}/{file2}, fdc_cli.py close, submit) lints clean', () => {
    expect(lint({ 'plan.txt': read('line.plan.txt') })).toEqual([]);
  });

  it('the block-form fixture lints clean', () => {
    expect(lint({ 'plan.txt': read('block.plan.txt') })).toEqual([]);
  });

  it('the original fdc_cli.py close is the close command; a plan without it still fails the Closure Mandate', () => {
    const open = 'set_plan x\nplan_step_complete y\n';
    expect(lint({ 'plan.txt': `${open}run_in_bash_session python3 tooling/fdc_cli.py close --task-id T\n` })).toEqual([]);
    expect(lint({ 'plan.txt': `${open}run_in_bash_session python tooling/fdc_cli.py lint plan.txt\n` })).toEqual(['closure-mandate@3:1']);
  });

  it('bug fixed: a "close" word anywhere in a shell command is not the close (the original took any)', () => {
    expect(lint({ 'plan.txt': 'set_plan x\nplan_step_complete y\nrun_in_bash_session git commit -m close\n' })).toEqual(['closure-mandate@3:1']);
  });

  it('submit is accepted only after the close', () => {
    expect(lint({ 'plan.txt': 'set_plan x\nplan_step_complete y\nrun_in_bash_session close\nsubmit\n' })).toEqual([]);
    // submit before the close: the FSM refuses it, and the plan still does not end with the close.
    expect(lint({ 'plan.txt': 'set_plan x\nplan_step_complete y\nsubmit\n' })).toEqual(['fsm-adherence@3:1']);
    expect(lint({ 'plan.txt': 'set_plan x\nplan_step_complete y\nrun_in_bash_session close\nsubmit\nsubmit\n' })).toEqual(['fsm-adherence@5:1']);
  });

  it('a dialect whose afterClose names the close symbol, or an unknown symbol, is refused', () => {
    const raw = JSON.parse(readFileSync(fileURLToPath(new URL('../../../protocols/fdc.dialect.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
    expect(loadDialect({ ...raw, afterClose: ['close_op'] }, fdc.machine).problems.map((p) => p.pointer)).toEqual(['/afterClose/0']);
    expect(loadDialect({ ...raw, afterClose: ['nope'] }, fdc.machine).problems.map((p) => p.pointer)).toEqual(['/afterClose/0']);
    expect(loadDialect({ ...raw, afterClose: 'submit_op' }, fdc.machine).problems.map((p) => p.pointer)).toEqual(['/afterClose']);
  });
});

describe('nested loop variables {file1}, {file2}', () => {
  it('bind the outer and inner loop files instead of being read as literal file names', () => {
    const plan = 'set_plan x\nplan_step_complete y\nfor_each_file src/*.py\n  for_each_file tests/*.py\n    read_file {file1}\n    read_file {file2}\n    read_file {file}\nrun_in_bash_session close\n';
    expect(lint({ 'plan.txt': plan })).toEqual([]);
    // Deleting what {file1} names inside the inner loop: the second inner iteration finds it gone.
    const del = 'set_plan x\nplan_step_complete y\nfor_each_file src/a.py\n  for_each_file tests/*.py\n    delete_file {file1}\nrun_in_bash_session close\n';
    expect(lint({ 'plan.txt': del })).toEqual(['file-not-found@5:17']);
  });

  it('a variable no enclosing loop binds is unbound-placeholder at its column', () => {
    const plan = 'set_plan x\nplan_step_complete y\nfor_each_file src/*.py\n  read_file {file2}\nread_file {file1}\nrun_in_bash_session close\n';
    const { diagnostics } = parsePlan(plan, 'plan.txt');
    expect(diagnostics.map((d) => `${d.ruleId}@${d.line}:${d.column}`)).toEqual(['unbound-placeholder@4:13', 'unbound-placeholder@5:11']);
    expect(diagnostics[0]!.message).toContain('{file2} is not bound here');
  });

  it('bindPlaceholders: {file} is the innermost, {fileN} the N-th loop from the outside, others literal', () => {
    expect(bindPlaceholders('{file1}:{file2}:{file}', ['a', 'b'])).toBe('a:b:b');
    expect(bindPlaceholders('{file3} {file0} {files}', ['a', 'b'])).toBe('{file3} {file0} {files}');
    expect(bindPlaceholders('{file}', [])).toBe('{file}');
  });
});

describe('the block grammar (plan_parser.py)', () => {
  it('is recognised by its --- separators, and reads like its line form', () => {
    const block = read('block.plan.txt');
    expect(isBlockGrammarPlan(block)).toBe(true);
    expect(isBlockGrammarPlan(read('line.plan.txt'))).toBe(false);
    const { plan, diagnostics } = parsePlan(block, 'block.plan.txt');
    expect(diagnostics).toEqual([]);
    expect(plan.body.map((n) => (n.kind === 'command' ? `${n.name}|${n.raw}@${n.line}:${n.column}` : n.kind))).toEqual([
      'set_plan|Rename the helper module@3:1',
      'plan_step_complete|Planned@6:1',
      'rename_file|src/util.py src/helpers.py@10:1',
      'read_file|src/helpers.py@13:1',
      'run_in_bash_session|python tooling/fdc_cli.py close --task-id rename-7@16:1',
      'submit|@19:1',
    ]);
  });

  it('errors keep the exact line and column of the file as written (arguments on the next line)', () => {
    const plan = 'set_plan\nx\n---\nplan_step_complete\ny\n---\nread_file\n  missing.py\n---\nfrobnicate\nnow\n---\nrun_in_bash_session\nclose\n';
    expect(lint({ 'plan.txt': plan })).toEqual(['file-not-found@8:3', 'unknown-command@10:1']);
    const bad = 'set_plan\nx\n---\n\tplan_step_complete\n---\n9lives\n---\nrun_in_bash_session close\n';
    expect(lint({ 'plan.txt': bad })).toEqual(['malformed-line@6:1']);
  });

  it('findings in a block-form sub-plan point into that sub-plan', () => {
    const sub = 'set_plan\nsub\n---\nplan_step_complete\ngo\n---\ndelete_file\nnope.py\n---\nrun_in_bash_session\nclose\n';
    expect(lint({ 'plan.txt': 'set_plan x\nplan_step_complete y\ncall_plan sub.txt\nrun_in_bash_session close\n', 'sub.txt': sub })).toEqual(['file-not-found@sub.txt:8:1']);
  });
});

describe('formatPlan: one canonical grammar', () => {
  it('writes the block grammar in the one-line form, comments kept, and the result lints the same', () => {
    const out = formatPlan(read('block.plan.txt'), 'block.plan.txt');
    expect(out.grammar).toBe('block');
    expect(out.changed).toBe(true);
    expect(out.errors).toEqual([]);
    expect(out.text).toBe(
      [
        '# FSM: tooling/fdc_fsm.json',
        "# A plan in plan_parser.py's block grammar.",
        'set_plan Rename the helper module',
        'plan_step_complete Planned',
        '# the rename itself',
        'rename_file src/util.py src/helpers.py',
        'read_file src/helpers.py',
        'run_in_bash_session python tooling/fdc_cli.py close --task-id rename-7',
        'submit',
        '',
      ].join('\n'),
    );
    expect(lint({ 'plan.txt': out.text })).toEqual([]);
    expect(formatPlan(out.text, 'p').changed).toBe(false);
  });

  it('normalises the line form (BOM, CRLF, trailing spaces) and reports syntax errors with places', () => {
    expect(formatPlan('\uFEFFset_plan x  \r\nread_file a\r\n\r\n', 'p')).toMatchObject({ text: 'set_plan x\nread_file a\n', changed: true, grammar: 'line' });
    const broken = formatPlan('set_plan\nx\n---\n  for_each_file\n---\nrun_in_bash_session close\n', 'p');
    expect(broken.errors.map((e) => `${e.ruleId}@${e.line}:${e.column}`)).toEqual(['malformed-line@4:3']);
  });
});

describe('# FSM: directive', () => {
  it('names the FSM file at the top of either grammar, with its place; later comments are not directives', () => {
    expect(planDirectives(read('line.plan.txt')).fsm).toEqual({ value: 'tooling/fdc_fsm.json', line: 1, column: 8 });
    expect(planDirectives(read('block.plan.txt')).fsm).toEqual({ value: 'tooling/fdc_fsm.json', line: 1, column: 8 });
    expect(planDirectives('set_plan x\n# FSM: other.json\n').fsm).toBeUndefined();
    expect(planDirectives('#FSM:x.yaml\n').fsm).toEqual({ value: 'x.yaml', line: 1, column: 6 });
  });

  it('the original fdc_fsm.json (submit after close, accept DONE) checks the fixtures', () => {
    const { machine } = loadDefinition(JSON.parse(read('tooling/fdc_fsm.json')));
    if (!machine) throw new Error('fixture FSM invalid');
    expect(lint({ 'plan.txt': read('line.plan.txt') }, 'plan.txt', { machine })).toEqual([]);
    // Under the original FSM a plan that stops at the close is not accepted (POST_MORTEM is no accept state).
    const { findings } = lintPlan({ entry: 'p', root: JULES, host: memoryHost({ p: 'set_plan x\nplan_step_complete y\nrun_in_bash_session close\n' }), files: FILES, ...fdc, machine });
    expect(brief(findings, 'p')).toEqual(['fsm-adherence@3:1']);
  });
});
