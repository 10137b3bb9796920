import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { addLessons, extractLessons, readLessons, updateLessons, type Lesson } from '../src/index.js';
import { NOW, postMortem, tempDir } from './support.js';

function lessons(n: number, task = 't'): Lesson[] {
  const md = postMortem(Array.from({ length: n }, (_, i) => `**Lesson:** lesson number ${i} was learned\n**Action:** add tool 'x${i}' to protocol 'p'`).join('\n\n'));
  return extractLessons(md, { path: 'pm.md', now: NOW, taskId: task }).lessons;
}

describe('lessons.jsonl', () => {
  test('a missing file reads as empty; adding twice adds nothing the second time', async () => {
    const path = join(await tempDir(), 'knowledge_core', 'lessons.jsonl');
    expect((await readLessons(path)).lessons).toEqual([]);
    const first = await addLessons(path, lessons(3));
    expect(first.added).toHaveLength(3);
    const text = await readFile(path, 'utf8');
    const second = await addLessons(path, lessons(3));
    expect(second.added).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  test("the original system's lines are read as the lessons they mean, and rewritten only when changed", async () => {
    const path = join(await tempDir(), 'lessons.jsonl');
    const seed = (id: string, command: string, parameters: object, type = 'UPDATE_PROTOCOL'): string =>
      JSON.stringify({ lesson_id: id, task_id: 't1', date: '2025-01-02T10:00:00', insight: `insight ${id}`, action: { type, command, parameters }, status: 'pending' });
    const lines = [
      seed('a1', 'add-tool', { protocol_id: 'fdc', tool_name: 'grep' }),
      seed('b2', 'update-rule', { protocol_id: 'fdc', rule_id: 'r1', new_description: 'New text.' }),
      seed('c3', 'placeholder', {}),
      seed('d4', 'propose-code-change', { filepath: 'src/a.js', details: '--- a/src/a.js\n+++ b/src/a.js\n' }, 'PROPOSE_CODE_CHANGE'),
      seed('e5', 'launch-rockets', {}),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);
    const file = await readLessons(path);
    expect(file.lessons.map((l) => [l.lesson_id, l.status, l.action.command, l.action.parameters, l.date])).toEqual([
      ['a1', 'pending', 'add-tool', { protocol_id: 'fdc', tool: 'grep' }, '2025-01-02'],
      ['b2', 'pending', 'update-rule', { protocol_id: 'fdc', rule_id: 'r1', description: 'New text.' }, '2025-01-02'],
      ['c3', 'manual', 'manual', { text: '', note: expect.stringContaining('a person decides') as string }, '2025-01-02'],
      ['d4', 'pending', 'propose-code-change', { filepath: 'src/a.js', diff: '--- a/src/a.js\n+++ b/src/a.js\n' }, '2025-01-02'],
    ]);
    expect(file.lessons[0]!.history).toEqual([{ status: 'pending', time: '2025-01-02', reason: expect.stringContaining('original format') as string }]);
    // An unknown command is still a problem, with its line; nothing is guessed.
    expect(file.problems).toEqual([{ line: 5, message: expect.stringContaining('/action/command') as string }]);
    // Changing one lesson rewrites that line in Ratchet's format and leaves the others as they were.
    await updateLessons(path, (f) => {
      f.lessons[0]!.status = 'applied';
      return { result: undefined };
    });
    const after = (await readFile(path, 'utf8')).split('\n');
    expect(JSON.parse(after[0]!)).toMatchObject({ lesson_id: 'a1', status: 'applied', action: { parameters: { tool: 'grep' } }, history: [{ status: 'pending' }] });
    expect(after.slice(1, 5)).toEqual(lines.slice(1));
  });

  test('a corrupt line: its line number, the other lessons still load, and rewrites keep it byte for byte', async () => {
    const path = join(await tempDir(), 'lessons.jsonl');
    const [a, b, c] = lessons(3);
    const bad = '{"lesson_id": "x", "truncated';
    const hostile = '{"__proto__": {"polluted": true}}';
    await writeFile(path, `${JSON.stringify(a)}\n${bad}\r\n${JSON.stringify(b)}\n${hostile}\n{"lesson_id": 1}\n`);
    const file = await readLessons(path);
    expect(file.lessons.map((l) => l.lesson_id)).toEqual([a!.lesson_id, b!.lesson_id]);
    expect(file.problems.map((p) => p.line)).toEqual([2, 4, 5]);
    expect(file.problems[1]!.message).toContain('__proto__');
    expect(file.problems[2]!.message).toContain('/lesson_id');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await addLessons(path, [c!]);
    await updateLessons(path, (f) => {
      f.lessons[0]!.status = 'applied';
      return { result: undefined };
    });
    const text = await readFile(path, 'utf8');
    const lines = text.split('\n');
    expect(lines[1]).toBe(`${bad}\r`);
    expect(lines[3]).toBe(hostile);
    expect(lines[4]).toBe('{"lesson_id": 1}');
    expect((JSON.parse(lines[0]!) as Lesson).status).toBe('applied');
    expect((JSON.parse(lines[5]!) as Lesson).lesson_id).toBe(c!.lesson_id);
  });

  test('concurrent additions lose nothing', async () => {
    const path = join(await tempDir(), 'lessons.jsonl');
    await Promise.all(Array.from({ length: 6 }, (_, i) => addLessons(path, lessons(2, `task-${i}`))));
    expect((await readLessons(path)).lessons).toHaveLength(12);
  });
});
