/** lessons.jsonl and post-mortems in the original Jules system's other shapes (test/fixtures/jules/). */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LessonsError, addLessons, extractLessons, isLessonsHeading, parseLessons, readLessons } from '../src/index.js';

const JULES = fileURLToPath(new URL('./fixtures/jules/', import.meta.url));
const read = (name: string): string => readFileSync(join(JULES, name), 'utf8');
const NOW = '2026-01-02T03:04:05.000Z';

describe('lessons.jsonl variants', () => {
  const file = parseLessons(read('lessons.jsonl'), 'knowledge_core/lessons.jsonl');

  it('reads the lesson/action, failure/actionable_change and obsolete shapes as lessons', () => {
    expect(file.lessons.map((l) => [l.task_id, l.date, l.insight, l.action.command, l.status])).toEqual([
      ['fix-ci', '2025-10-07', 'The linter was never run before submit.', 'add-tool', 'resolved'],
      ['rename-7', '2025-10-08', 'Plans that rename files must re-read them afterwards.', 'add-tool', 'pending'],
      ['unknown', '2025-10-09', 'The research plan failed lint.', 'update-rule', 'pending'],
      ['unknown', '1970-01-01', 'Nobody wrote down why the deploy stalled.', 'manual', 'manual'],
    ]);
    expect(file.lessons[0]!.history[0]!.reason).toContain('marked obsolete there');
    expect(file.lessons[3]!.history[0]!.reason).toContain('it had no date');
    expect(file.lessons[2]!.action.parameters).toEqual({ protocol_id: 'research-fdc-001', rule_id: 'executable-plans', description: 'Research plans must lint clean before they run.' });
  });

  it('one bad line (two objects concatenated) is reported with its line and hides none of the others', () => {
    expect(file.problems).toHaveLength(1);
    expect(file.problems[0]!.line).toBe(4);
    expect(file.lessons).toHaveLength(4);
  });
});

describe('post-mortem variants', () => {
  it('the "Lessons Learned & Action Items" heading is a lessons section', () => {
    expect(isLessonsHeading('4. Lessons Learned & Action Items')).toBe(true);
    expect(isLessonsHeading('Lessons learned and action item')).toBe(true);
    expect(isLessonsHeading('Action Items')).toBe(false);
    const found = extractLessons(read('postmortem-action-items.md'), { path: 'pm.md', now: NOW });
    expect(found.lessons.map((l) => [l.task_id, l.action.command, l.action.parameters])).toEqual([
      ['rename-7', 'add-tool', { protocol_id: 'fdc-protocol-001', tool: 'read_file' }],
      ['rename-7', 'add-tool', { protocol_id: 'standing-orders-001', tool: 'changelog_check' }],
    ]);
  });

  it('the JSON-block template: lessons as JSON objects in any of the lessons.jsonl shapes', () => {
    const found = extractLessons(read('postmortem-json.md'), { path: 'pm.md', now: NOW });
    expect(found.lessons.map((l) => [l.task_id, l.date, l.insight, l.action])).toEqual([
      ['research-3', '2025-10-09', 'The research plan failed lint.', { type: 'UPDATE_PROTOCOL', command: 'update-rule', parameters: { protocol_id: 'research-fdc-001', rule_id: 'executable-plans', description: 'Research plans must lint clean before they run.' } }],
      ['research-3', '2025-10-09', 'Sources were not cited.', { type: 'UPDATE_PROTOCOL', command: 'update-rule', parameters: { protocol_id: 'research-protocol-001', rule_id: 'cite', description: 'Cite every source.' } }],
    ]);
  });

  it('a malformed JSON block is an error at its line; an object that is no lesson too', () => {
    const broken = '# PM\n\n## Lessons Learned\n\n```json\n[{"lesson": "x",\n  "action": }]\n```\n';
    const err = (() => {
      try {
        extractLessons(broken, { path: 'pm.md', now: NOW });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(LessonsError);
    expect((err as LessonsError).line).toBe(7);
    expect(() => extractLessons('## Lessons Learned\n\n```json\n{"note": "no lesson here"}\n```\n', { path: 'pm.md', now: NOW })).toThrow(/pm\.md:4:1: a lesson in the JSON block needs/);
  });
});

describe('no duplicates across shapes', () => {
  it('extracting a post-mortem whose lessons are already in the file (in a variant form) adds only the new one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-jules-lessons-'));
    const path = join(dir, 'lessons.jsonl');
    copyFileSync(join(JULES, 'lessons.jsonl'), path);
    const before = readFileSync(path, 'utf8');
    const first = await addLessons(path, extractLessons(read('postmortem-action-items.md'), { path: 'pm.md', now: NOW }).lessons);
    expect(first.added.map((l) => l.insight)).toEqual(['The changelog was forgotten.']);
    // The failure/actionable_change line has no task: the same lesson from task research-3 is still the same lesson.
    const second = await addLessons(path, extractLessons(read('postmortem-json.md'), { path: 'pm.md', now: NOW }).lessons);
    expect(second.added.map((l) => l.insight)).toEqual(['Sources were not cited.']);
    // Every original line, the bad one included, is kept byte for byte; the new lessons are appended.
    expect(readFileSync(path, 'utf8').startsWith(before)).toBe(true);
    expect((await readLessons(path)).lessons).toHaveLength(6);
  });
});
