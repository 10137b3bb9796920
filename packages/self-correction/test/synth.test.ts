/**
 * Lessons and post-mortems in the shapes the original's own tools wrote in metavacua/SynthPlayground's
 * history (test/fixtures/jules/synth/, see its README): each shape is read, unknown fields are kept,
 * and what is refused is refused at its line with why.
 */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractLessons, parseLessons, readLessons, updateLessons } from '../src/index.js';
import { refusal } from './support.js';

const SYNTH = fileURLToPath(new URL('./fixtures/jules/synth/', import.meta.url));
const read = (name: string): string => readFileSync(join(SYNTH, name), 'utf8');
const NOW = '2030-01-02T03:04:05.000Z';
const extract = (name: string) => extractLessons(read(name), { path: name, now: NOW });

describe("lessons.jsonl as the original's tools wrote it", () => {
  it("knowledge_compiler.py: the text under \"lesson\", a placeholder action's text in parameters.description, a date with a time", () => {
    const file = parseLessons(read('lessons-v1.jsonl'), 'lessons.jsonl');
    expect(file.problems).toEqual([]);
    expect(file.lessons.map((l) => [l.lesson_id, l.task_id, l.date, l.status, l.action.command])).toEqual([
      ['5d0e7c52-1f7a-4b8e-9a43-2c6f1e0b9d11', 'feature/plan-checker', '2025-10-06', 'manual', 'manual'],
      ['9a1c3e77-0b2d-4f6a-8c15-7e4d2b9f0a33', 'fix/state-machine', '2025-10-07', 'manual', 'manual'],
      ['2f8b6d40-3c9e-4a7b-b1d2-5e6f7a8b9c0d', 'sentinel_run_tool.py', '2025-11-03', 'manual', 'manual'],
      ['verify-adder-capability', 'unknown', '1970-01-01', 'pending', 'propose-code-change'],
    ]);
    expect(file.lessons[1]!.insight).toBe('A state must mean a condition of the system, not a line in a script.');
    expect(file.lessons[1]!.action.parameters).toEqual({ text: 'Define what each state requires before wiring its transitions.', note: expect.stringContaining('a person decides') as string });
    // The verifier's failure record is kept as it was.
    expect(file.lessons[3]!.extra).toEqual({ failure: { test_file: 'capability_dir/test_adder.py', error_message: 'Initial failure' } });
    expect(file.lessons[3]!.history[0]!.reason).toContain('it had no date');
  });

  it('capability_verifier.py and the structured generator: failure records and actionable changes read, their fields kept; the unfilled-template line refused with why', () => {
    const file = parseLessons(read('lessons-v2.jsonl'), 'lessons.jsonl');
    expect(file.lessons.map((l) => [l.lesson_id, l.status, l.action.command, l.insight])).toEqual([
      ['verify-adder-capability', 'applied', 'propose-code-change', "capability_dir/test_adder.py: AttributeError: module 'adder' has no attribute 'add'"],
      ['lint-before-submit', 'applied', 'add-tool', 'PROCESS_VIOLATION: The change went in without the linter, and the build broke.'],
      ['7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', 'manual', 'manual', 'The linter did not run before submit, so CI failed and a second commit was needed.'],
    ]);
    expect(file.lessons[1]!.action.parameters).toEqual({ protocol_id: 'pre-commit-protocol-001', tool: 'code_linter' });
    const structured = file.lessons[2]!;
    expect(structured.action.parameters).toMatchObject({ text: 'Add a pre-commit rule that runs the linter and stops on errors.' });
    expect(Object.keys(structured.extra ?? {})).toEqual(['category', 'severity', 'actionable_change']);
    expect((structured.extra!.actionable_change as { details: { proposed_content: { rule_id: string } } }).details.proposed_content.rule_id).toBe('pre-commit-lint');
    expect(file.problems).toEqual([{ line: 4, message: expect.stringMatching(/^not a lesson: .*"\*\*Action:\*\* 2\. {2}\*\*Lesson:\*\*".*task "\[TASK_ID\]".*remove the line$/) as string }]);
  });

  it('a rewritten line keeps its unknown fields under extra, and the bad line byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-synth-lessons-'));
    const path = join(dir, 'lessons.jsonl');
    copyFileSync(join(SYNTH, 'lessons-v2.jsonl'), path);
    const before = read('lessons-v2.jsonl').split('\n');
    await updateLessons(path, (f) => {
      const lesson = f.lessons.find((l) => l.lesson_id.startsWith('7c1d2e3f'))!;
      lesson.status = 'resolved';
      lesson.history.push({ status: 'resolved', time: NOW, reason: 'added the lint rule by hand' });
      return { result: undefined };
    });
    const after = readFileSync(path, 'utf8').split('\n');
    expect(after[0]).toBe(before[0]);
    expect(after[3]).toBe(before[3]);
    const rewritten = JSON.parse(after[2]!) as { status: string; extra: Record<string, unknown> };
    expect(rewritten.status).toBe('resolved');
    expect(rewritten.extra).toMatchObject({ category: 'Process', severity: 'High', actionable_change: { type: 'UPDATE_PROTOCOL' } });
    expect((await readLessons(path)).lessons.find((l) => l.lesson_id.startsWith('7c1d2e3f'))?.extra).toEqual(rewritten.extra);
  });
});

describe("post-mortems as the original's templates and reports wrote them", () => {
  it('the unfilled template yields no pending lesson: each placeholder is refused at its line, in its section', () => {
    const err = refusal(() => extract('postmortem-template.md'));
    expect(err.code).toBe('no-substance');
    expect(err.diagnostics?.map((d) => [d.line, d.message])).toEqual([
      [35, 'section "3. Corrective Actions & Lessons Learned": the action "[Description of the corrective action]" is a template placeholder, not an action: write what will change'],
      [36, 'section "3. Corrective Actions & Lessons Learned": the action "[Description of the corrective action]" is a template placeholder, not an action: write what will change'],
    ]);
  });

  it('"- **Task ID**: `id`" (colon after the bold) in the summary section is the task; bare bullets are lessons under "Lessons Learned", actions under "Corrective Actions"', () => {
    const found = extract('postmortem-task-id.md');
    expect(found.taskId).toBe('review-of-failures-02');
    expect(found.lessons.map((l) => [l.task_id, l.insight !== '', l.action.command, l.action.parameters])).toEqual([
      ['review-of-failures-02', true, 'manual', { text: '', note: 'the lesson has no **Action:**' }],
      ['review-of-failures-02', true, 'manual', { text: '', note: 'the lesson has no **Action:**' }],
      ['review-of-failures-02', false, 'manual', { text: 'A standing order for the time after a submit was added to the protocol.' }],
      ['review-of-failures-02', false, 'manual', { text: 'The change went in on its own branch for review.' }],
    ]);
  });

  it('two reports in one file: each lesson gets its report\'s task and date; "**Lesson 1: Title.** text" keeps no stray **', () => {
    const found = extract('postmortem-titled.md');
    expect(found.lessons.map((l) => [l.task_id, l.date, l.insight])).toEqual([
      ['feat/review-wrapper', '2025-10-06', 'Hidden State. The review tool depends on which tool call came before it.'],
      ['feat/review-wrapper', '2025-10-06', 'A Reliable Workaround. Make a file change the last action before calling the review tool.'],
    ]);
  });

  it('"**Task:** Integrate the ... toolchain" is a title, not the task id "Integrate": the file name is', () => {
    const found = extract('postmortem-integrate.md');
    expect(found.taskId).toBe('postmortem-integrate');
    expect(found.lessons.map((l) => [l.task_id, l.date, l.action.command])).toEqual([['postmortem-integrate', '2025-10-09', 'add-tool']]);
  });

  it('"Generation of Structured Lessons": a filled JSON lesson is read; the template\'s unfilled ones are refused', () => {
    const found = extract('postmortem-structured.md');
    expect(found.lessons.map((l) => [l.task_id, l.date, l.insight, l.action.command])).toEqual([
      ['sentinel_run_tool.py', '2025-11-03', "The task 'sentinel_run_tool.py' completed with status 'SUCCESS'.", 'manual'],
    ]);
    const err = refusal(() => extract('postmortem-structured-template.md'));
    expect(err.diagnostics?.map((d) => d.line)).toEqual([12, 32]);
    expect(err.message).toContain("the JSON lesson is the template's unfilled example (\"[UUID]\", \"[TASK_ID]\")");
  });

  it('a post-mortem without a lessons section names the sections it has', () => {
    const err = refusal(() => extractLessons('# Report\n\n## 1. Executive Summary\n\nAll good.\n\n## 2. Timeline\n\n- started\n', { path: 'r.md', now: NOW }));
    expect(err.code).toBe('no-section');
    expect(err.reason).toContain('(the sections found: "1. Executive Summary", "2. Timeline")');
  });
});
