/**
 * knowledge_core/lessons.jsonl. Not `openJsonl`: one corrupt line must not hide the other lessons,
 * and it must survive every rewrite byte for byte. So each line is kept as raw text; valid lines
 * are parsed (the store's parser: no `__proto__`), bad ones are reported with their line number and
 * written back unchanged. Lines in the original system's shapes are read as the lessons they mean
 * (original-lesson.ts).
 *
 * The file is state, not a log: it is written only through the store (`updateTrackedText`: lock,
 * re-read inside the lock, atomic replace, a digest record beside it), so a hand edit (a lesson set
 * to `applied` in an editor) is refused on the next read with TamperedError naming the file, until
 * a person runs `ratchet doctor --accept|--restore`. A file Ratchet never wrote (the original's) is
 * read as it is; the first write starts tracking it.
 */
import { parseJson, readDigestRecord, readTrackedText, updateTrackedText } from '@ratchet/store';
import { checkLesson } from './check-lesson.js';
import { UNKNOWN_TASK, readOriginalLesson } from './original-lesson.js';
import type { Lesson } from './types.js';

export const LESSONS_PATH = 'knowledge_core/lessons.jsonl';

export interface LessonLine {
  line: number;
  raw: string;
  lesson?: Lesson | undefined;
  /** Why the line is not a lesson (it is kept as is). */
  problem?: string | undefined;
}

export interface LessonsFile {
  path: string;
  lines: LessonLine[];
  lessons: Lesson[];
  problems: { line: number; message: string }[];
  /** Whether a digest record guards the file (false: no file, or one Ratchet never wrote). */
  tracked?: boolean;
}

/** Reads and checks the file (TamperedError when it is not what Ratchet last wrote). */
export function readLessons(path: string): Promise<LessonsFile> {
  return Promise.resolve().then(() => {
    const { text, tracked } = readTrackedText(path);
    if (text === undefined) return { path, lines: [], lessons: [], problems: [], tracked: false };
    return { ...parseLessons(text, path), tracked };
  });
}

export function parseLessons(text: string, path = LESSONS_PATH): LessonsFile {
  const body = text.replace(/^\uFEFF/, '');
  const raws = body.split('\n');
  if (raws[raws.length - 1] === '') raws.pop();
  const lines: LessonLine[] = [];
  const lessons: Lesson[] = [];
  const problems: { line: number; message: string }[] = [];
  const seen = new Set<string>();
  raws.forEach((raw, i) => {
    const line = i + 1;
    const content = raw.replace(/\r$/, '');
    if (content.trim() === '') {
      lines.push({ line, raw });
      return;
    }
    let value: unknown;
    try {
      value = parseJson(content, { path, firstLine: line });
    } catch (err) {
      const message = (err as { reason?: string }).reason ?? (err as Error).message;
      lines.push({ line, raw, problem: message });
      problems.push({ line, message });
      return;
    }
    const original = readOriginalLesson(value);
    if (original.kind === 'empty') {
      lines.push({ line, raw, problem: original.problem });
      problems.push({ line, message: original.problem });
      return;
    }
    value = original.value;
    const problem = checkLesson(value);
    if (problem !== undefined) {
      lines.push({ line, raw, problem });
      problems.push({ line, message: problem });
      return;
    }
    const lesson = value as Lesson;
    if (seen.has(lesson.lesson_id)) {
      const message = `duplicate lesson_id "${lesson.lesson_id}" (the first one is used)`;
      lines.push({ line, raw, problem: message });
      problems.push({ line, message });
      return;
    }
    seen.add(lesson.lesson_id);
    lines.push({ line, raw, lesson });
    lessons.push(lesson);
  });
  return { path, lines, lessons, problems };
}

/**
 * Locked read-modify-write. `fn` may change lessons in place and return new ones to append (lessons
 * whose id exists already are skipped: extraction is idempotent). Changed lessons are re-serialised;
 * every other line, including bad ones, is written back as it was.
 */
export async function updateLessons<T>(
  path: string,
  fn: (file: LessonsFile) => { append?: Lesson[]; result: T } | Promise<{ append?: Lesson[]; result: T }>,
): Promise<{ file: LessonsFile; added: Lesson[]; result: T }> {
  return updateTrackedText(
    path,
    async (current) => {
      const file = current === undefined ? { path, lines: [], lessons: [], problems: [] } : parseLessons(current, path);
      const before = new Map(file.lines.filter((l) => l.lesson !== undefined).map((l) => [l, JSON.stringify(l.lesson)]));
      const { append = [], result } = await fn(file);
      const ids = new Set(file.lessons.map((l) => l.lesson_id));
      const known = new Map<string, string>();
      for (const l of file.lessons) known.set(sameLessonKey(l), l.task_id);
      const added: Lesson[] = [];
      for (const lesson of append) {
        if (ids.has(lesson.lesson_id)) continue;
        // The same lesson already in the file under another id (a line in one of the original's
        // shapes, with its own uuid or no task): not added twice.
        const task = known.get(sameLessonKey(lesson));
        if (task !== undefined && (task === lesson.task_id || task === UNKNOWN_TASK)) continue;
        ids.add(lesson.lesson_id);
        known.set(sameLessonKey(lesson), lesson.task_id);
        added.push(lesson);
      }
      const out: string[] = [];
      let changed = added.length > 0;
      for (const line of file.lines) {
        if (line.lesson !== undefined) {
          const now = JSON.stringify(line.lesson);
          if (now !== before.get(line)) {
            changed = true;
            out.push(now);
            continue;
          }
        }
        out.push(line.raw);
      }
      for (const lesson of added) out.push(JSON.stringify(lesson));
      const text = `${out.join('\n')}\n`;
      return { text: changed ? text : undefined, result: { file: { ...parseLessons(changed ? text : current ?? '', path), tracked: changed || readDigestRecord(path) !== undefined }, added, result } };
    },
    { createParentDirs: true },
  );
}

/**
 * What makes two lessons the same whatever file shape they came from: the insight (case, spacing,
 * emphasis and a final full stop aside) and the action.
 */
function sameLessonKey(lesson: Lesson): string {
  const insight = lesson.insight.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().replace(/\.$/, '').toLowerCase();
  return JSON.stringify([insight, lesson.action]);
}

/** Appends newly extracted lessons; returns those that were actually new. */
export async function addLessons(path: string, lessons: readonly Lesson[]): Promise<{ added: Lesson[]; file: LessonsFile }> {
  const { added, file } = await updateLessons(path, () => ({ append: [...lessons], result: undefined }));
  return { added, file };
}
