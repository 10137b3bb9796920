import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { loadDefinition } from '@ratchet/fsm-core';
import { lintPlan, loadDialect, type Finding } from '@ratchet/plan-lint';
import { describe, expect, test } from 'vitest';
import { normaliseTopic, researchPlan, researchSlug } from '../src/index.js';

const protocols = fileURLToPath(new URL('../../../protocols/', import.meta.url));
const { machine } = loadDefinition(JSON.parse(readFileSync(`${protocols}research.fsm.json`, 'utf8')));
const { dialect } = loadDialect(JSON.parse(readFileSync(`${protocols}research.dialect.json`, 'utf8')), machine);

function lint(text: string, files: string[] = ['README.md']): Finding[] {
  const entry = 'research.plan';
  return lintPlan({ entry, root: '/project', host: { readPlan: (p) => (p === entry ? text : undefined) }, files, machine: machine!, dialect: dialect! }).findings;
}

describe('researchPlan', () => {
  test('a plain topic gives a plan that lints clean against the research FSM, with comments', () => {
    const plan = researchPlan('How do pushdown automata bound recursion?');
    expect(plan.researchId).toBe('how-do-pushdown-automata-bound-recursion');
    expect(plan.reportPath).toBe('research/how-do-pushdown-automata-bound-recursion/report.md');
    expect(plan.text).toMatch(/^# L4 deep research: How do pushdown automata bound recursion\?\n/);
    expect(lint(plan.text)).toEqual([]);
  });

  test('lint-clean for arbitrary topics (property): newlines, #, braces, unicode, empty', () => {
    const topic = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.constantFrom('', '\n\n', '# comment', '{file}', 'for_each_file *', 'call_plan x', 'run_in_bash_session close', '  indented', '\r\n\t', '__proto__', '../../etc/passwd', '\u2028x\u0000y'),
    );
    fc.assert(
      fc.property(topic, (t) => {
        const plan = researchPlan(t);
        const findings = lint(plan.text);
        return findings.length === 0 && !plan.reportPath.includes('..') && !plan.topic.includes('\n');
      }),
      { numRuns: 400 },
    );
  });

  test('the report path is created by the plan, so an existing report is a finding (pick another id)', () => {
    const plan = researchPlan('x', { researchId: 'taken' });
    expect(lint(plan.text, ['research/taken/report.md']).map((f) => f.ruleId)).toContain('file-exists');
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
