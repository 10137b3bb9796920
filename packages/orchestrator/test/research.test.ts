import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { loadDefinition } from '@ratchet/fsm-core';
import { lintPlan, loadDialect, type Finding } from '@ratchet/plan-lint';
import { describe, expect, test } from 'vitest';
import { normaliseTopic, researchPlan, researchReportPath, researchReportProblem, researchSlug } from '../src/index.js';

const protocols = fileURLToPath(new URL('../../../protocols/', import.meta.url));
const { machine } = loadDefinition(JSON.parse(readFileSync(`${protocols}research.fsm.json`, 'utf8')));
const { dialect } = loadDialect(JSON.parse(readFileSync(`${protocols}research.dialect.json`, 'utf8')), machine);
// The project's default plan language: a research plan called as a sub-plan is linted in it.
const fdcMachine = loadDefinition(JSON.parse(readFileSync(`${protocols}fdc.fsm.json`, 'utf8'))).machine;
const fdcDialect = loadDialect(JSON.parse(readFileSync(`${protocols}fdc.dialect.json`, 'utf8')), fdcMachine).dialect;

// The original's tooling/research_fsm.json: one write, right after the single step; nothing but the close after it.
const original = loadDefinition({
  states: ['IDLE', 'GATHERING', 'SYNTHESIZING', 'REPORTING', 'DONE'],
  alphabet: ['plan_op', 'step_op', 'read_op', 'write_op', 'tool_exec', 'close_op'],
  transitions: { IDLE: { plan_op: 'GATHERING' }, GATHERING: { read_op: 'GATHERING', tool_exec: 'GATHERING', step_op: 'SYNTHESIZING' }, SYNTHESIZING: { write_op: 'REPORTING' }, REPORTING: { close_op: 'DONE' } },
  start_state: 'IDLE',
  accept_states: ['DONE'],
}).machine!;

function lint(text: string, files: string[] = ['README.md'], language: 'research' | 'fdc' | 'original' = 'research'): Finding[] {
  const entry = 'research.plan';
  const [m, d] = language === 'research' ? [machine, dialect] : language === 'original' ? [original, dialect] : [fdcMachine, fdcDialect];
  return lintPlan({ entry, root: '/project', host: { readPlan: (p) => (p === entry ? text : undefined) }, files, machine: m!, dialect: d! }).findings;
}

describe('researchPlan', () => {
  test('a plain topic gives a plan that lints clean against the research FSM, with comments', () => {
    const plan = researchPlan('How do pushdown automata bound recursion?');
    expect(plan.researchId).toBe('how-do-pushdown-automata-bound-recursion');
    expect(plan.reportPath).toBe('research/how-do-pushdown-automata-bound-recursion/report.md');
    expect(plan.text).toMatch(/^# L4 deep research: How do pushdown automata bound recursion\?\n/);
    expect(lint(plan.text)).toEqual([]);
    expect(lint(plan.text, ['README.md'], 'fdc')).toEqual([]);
  });

  test("lint-clean in the research language (Ratchet's FSM and the original's) and the default (fdc) language for arbitrary topics (property): newlines, #, braces, unicode, empty", () => {
    const topic = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom('', '\n\n', '# comment', '{file}', 'for_each_file *', 'call_plan x', 'run_in_bash_session close', '  indented', '\r\n\t', '__proto__', '../../etc/passwd', '\u2028x\u0000y'),
    );
    fc.assert(
      fc.property(topic, (t) => {
        const plan = researchPlan(t);
        // Clean (no warnings either) in both languages: as the research cycle's plan and as a call_plan sub-plan.
        const findings = [...lint(plan.text), ...lint(plan.text, ['README.md'], 'fdc'), ...lint(plan.text, ['README.md'], 'original')];
        return findings.length === 0 && !plan.reportPath.includes('..') && !plan.topic.includes('\n');
      }),
      { numRuns: 400 },
    );
  });

  test("the seed's five phases, in order: review, scoping, broad gathering, targeted extraction, synthesis into the report", () => {
    const plan = researchPlan('lock survival', { researchId: 'locks' });
    const commands = plan.text
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((l) => l.split(' ')[0]);
    expect(commands).toEqual(['set_plan', 'list_files', 'grep', 'define_scope', 'google_search', 'view_text_website', 'plan_step_complete', 'overwrite_file_with_block', 'run_in_bash_session']);
    expect(plan.text).toContain('google_search lock survival\n');
    expect(plan.text).toContain('overwrite_file_with_block research/locks/report.md\n');
  });

  test('a per-topic plan runs again: an existing report is rewritten, not a file-exists finding', () => {
    const plan = researchPlan('x', { researchId: 'taken' });
    expect(lint(plan.text, ['research/taken/report.md'])).toEqual([]);
    expect(lint(plan.text, ['research/taken/report.md'], 'fdc')).toEqual([]);
    // Called twice from one plan: the second call finds the first one's report and rewrites it.
    const twice = 'set_plan twice\nplan_step_complete go\ncall_plan research/taken/plan.txt\ncall_plan research/taken/plan.txt\nrun_in_bash_session close\n';
    const plans: Record<string, string> = { 'main.plan': twice, 'research/taken/plan.txt': plan.text };
    const findings = lintPlan({ entry: 'main.plan', root: '/project', host: { readPlan: (p) => plans[p] }, files: [], machine: fdcMachine!, dialect: fdcDialect! }).findings;
    expect(findings).toEqual([]);
  });

  test("lints clean against the original's research_fsm.json too (one write, after the single step; searches before it)", () => {
    expect(lint(researchPlan('anything at all').text, [], 'original')).toEqual([]);
  });

  test('topics are normalised to one bounded line; slugs are ASCII', () => {
    expect(normaliseTopic('  a\r\nb\tc  ')).toBe('a b c');
    expect(normaliseTopic('\n')).toBe('untitled topic');
    expect(normaliseTopic('see {file}')).toBe('see (file)');
    expect([...normaliseTopic('é'.repeat(500))]).toHaveLength(200);
    expect(researchSlug('Ünïcode & Friends!')).toBe('unicode-friends');
    expect(researchSlug('日本語')).toBe('research');
  });
});

describe('the research report', () => {
  test('a research plan is known by its place: research/<id>/plan.txt leaves research/<id>/report.md', () => {
    expect(researchReportPath('research/locks/plan.txt')).toBe('research/locks/report.md');
    expect(researchReportPath(researchPlan('x', { researchId: 'y' }).reportPath.replace('report.md', 'plan.txt'))).toBe('research/y/report.md');
    for (const other of ['plans/main.txt', 'research/plan.txt', 'research/a/b/plan.txt', 'research/a/plan.md', 'x/research/a/plan.txt']) expect(researchReportPath(other)).toBeUndefined();
  });

  test('missing, empty, whitespace-only and headings-only reports are refused, naming the file', () => {
    const at = 'research/x/report.md';
    expect(researchReportProblem(at, undefined)).toEqual({ code: 'missing', message: 'research/x/report.md does not exist' });
    for (const blank of ['', '  \n\t\r\n']) expect(researchReportProblem(at, blank)).toEqual({ code: 'empty', message: 'research/x/report.md is empty' });
    for (const bare of ['# Locks\n', '# Locks\n\n## Findings\n\n<!-- write here -->\n', '#\n<!-- unclosed']) {
      expect(researchReportProblem(at, bare)).toEqual({ code: 'empty', message: 'research/x/report.md has only headings, no findings' });
    }
    expect(researchReportProblem(at, '# Locks\nO_EXCL creates the lock file atomically.\n')).toBeUndefined();
    expect(researchReportProblem(at, '#hashtag is text, not a heading\n')).toBeUndefined();
  });
});
