import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { addLessons, extractLessons, readLessons, updateLessons, type Lesson } from '../src/index.js';
import { NOW, postMortem, tempDir } from './support.js';

function lessons(n: number, task = 't'): Lesson[] {
  const md = postMortem(Array.from({ length: n }, (_, i) => `**Lesson:** l${i}\n**Action:** add tool 'x${i}' to protocol 'p'`).join('\n\n'));
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
