import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { renderPostMortemTemplate, reviewSelfCorrection, summarisePostMortem, type Lesson } from '../src/index.js';
import { NOW, tempDir, writeFiles } from './support.js';

let root: string;
beforeEach(async () => {
  root = await tempDir('review-');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const template = (taskId: string, endedAt: string, outcome = 'success'): string => renderPostMortemTemplate({ taskId, startedAt: NOW, endedAt, outcome });
const summarised = (text: string): string => text.replace('<!-- What was the task?', 'Shipped the greeting.\nTests first next time.\n<!--');

function lesson(id: string, status: Lesson['status'], action: Lesson['action']): Lesson {
  return { lesson_id: id, task_id: 't1', date: '2030-01-02', insight: `insight ${id}`, action, status, history: [{ status, time: NOW, reason: 'test' }] };
}
const DIFF = "--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1 +1 @@\n-export const greeting = 1;\n+export const greeting = 'hello';\n";
const code = (id: string, status: Lesson['status'] = 'applied'): Lesson => lesson(id, status, { type: 'PROPOSE_CODE_CHANGE', command: 'propose-code-change', parameters: { filepath: 'src/greet.ts', diff: DIFF } });
const jsonl = (...ls: Lesson[]): string => ls.map((l) => `${JSON.stringify(l)}\n`).join('');

describe('summarisePostMortem', () => {
  test("reads the template's header; the Summary counts only once written", () => {
    const text = template('t1', '2030-01-03T00:00:00.000Z', 'failure');
    expect(summarisePostMortem('postmortems/t1.md', text)).toEqual({ path: 'postmortems/t1.md', taskId: 't1', outcome: 'failure', endedAt: '2030-01-03T00:00:00.000Z' });
    expect(summarisePostMortem('postmortems/t1.md', summarised(text)).summary).toBe('Shipped the greeting. Tests first next time.');
  });
});

describe('reviewSelfCorrection', () => {
  test('nothing there: no post-mortem, no lessons, no suggestions', async () => {
    expect(await reviewSelfCorrection(root)).toEqual({ lastPostMortem: null, pendingLessons: [], manualLessons: [], openSuggestions: [], errors: [] });
  });

  test('the last post-mortem is the one that ended last, not the one written last', async () => {
    await writeFiles(root, { 'postmortems/later.md': template('later', '2030-02-01T00:00:00.000Z') });
    await writeFiles(root, { 'postmortems/earlier.md': template('earlier', '2030-01-01T00:00:00.000Z'), 'postmortems/notes.txt': 'not a post-mortem' });
    expect((await reviewSelfCorrection(root)).lastPostMortem?.path).toBe('postmortems/later.md');
  });

  test('pending and manual lessons are named; applied, failed and resolved ones are not; a broken line is reported with its place', async () => {
    const manual = lesson('m1', 'manual', { type: 'MANUAL', command: 'manual', parameters: { text: 'ask' } });
    const pending = lesson('p1', 'pending', { type: 'UPDATE_PROTOCOL', command: 'add-tool', parameters: { protocol_id: 'fdc', tool: 'x' } });
    await writeFiles(root, { 'knowledge_core/lessons.jsonl': `${jsonl(manual, pending, { ...pending, lesson_id: 'a1', status: 'applied' }, { ...manual, lesson_id: 'r1', status: 'resolved' })}{oops\n` });
    const review = await reviewSelfCorrection(root);
    expect(review.pendingLessons).toEqual([{ id: 'p1', taskId: 't1', insight: 'insight p1' }]);
    expect(review.manualLessons.map((l) => l.id)).toEqual(['m1']);
    expect(review.errors).toEqual([expect.stringMatching(/^knowledge_core\/lessons\.jsonl:5: /) as string]);
  });

  test('a code suggestion is open while its plan exists and its diff still applies; making the change closes it', async () => {
    await writeFiles(root, {
      'src/greet.ts': 'export const greeting = 1;\n',
      'knowledge_core/lessons.jsonl': jsonl(code('c1'), code('c2'), code('c3', 'pending')),
      'knowledge_core/suggestions/c1.plan': 'set_plan x\n',
      // c2 has no plan (never applied here); c3 is still pending: neither is an open suggestion.
    });
    expect((await reviewSelfCorrection(root)).openSuggestions).toEqual([{ lessonId: 'c1', plan: 'knowledge_core/suggestions/c1.plan', file: 'src/greet.ts' }]);
    await writeFiles(root, { 'src/greet.ts': "export const greeting = 'hello';\n" });
    expect((await reviewSelfCorrection(root)).openSuggestions).toEqual([]);
  });
});
