import { resolve } from 'node:path';
import { readTextFile } from '@ratchet/store';
import { addLessons, extractLessons } from '@ratchet/self-correction';
import type { CommandAction } from '../../program.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../protocol/shared.js';

/** `ratchet lessons extract <postmortem.md>` */
const extract: CommandAction = async (ctx, args, options) => {
  const postmortem = resolve(ctx.cwd, args[0]!);
  const lessonsPath = resolve(ctx.cwd, (options.lessons as string | undefined) ?? 'knowledge_core/lessons.jsonl');
  // Post-mortems are a few kilobytes; the Markdown parser is slow on megabytes.
  const { text } = await readTextFile(postmortem, { maxBytes: 1024 * 1024 });
  const now = new Date().toISOString();
  const label = displayPath(ctx, postmortem);
  const found = extractLessons(text, { path: label, taskId: options.task as string | undefined, now });
  const { added, file } = await addLessons(lessonsPath, found.lessons);
  const addedIds = new Set(added.map((l) => l.lesson_id));
  if (ctx.json) {
    ctx.emitJson({ ok: true, task_id: found.taskId, lessons: displayPath(ctx, lessonsPath), found: found.lessons.length, added, problems: file.problems });
    return EXIT_OK;
  }
  if (found.lessons.length === 0) ctx.out(`${label}: the "${found.heading}" section has no Lesson/Action pairs`);
  for (const lesson of found.lessons) {
    const state = addedIds.has(lesson.lesson_id) ? 'added' : 'already known';
    const what = lesson.action.command === 'manual' ? `manual: a person must handle "${lesson.action.parameters.text || lesson.insight}"` : lesson.action.command;
    ctx.out(`${lesson.lesson_id}  ${state}  ${what}`);
  }
  ctx.out(`${added.length} new of ${found.lessons.length} lessons in ${displayPath(ctx, lessonsPath)} (task ${found.taskId})`);
  for (const p of file.problems) ctx.note(`${displayPath(ctx, lessonsPath)}:${p.line}: ${p.message} (line kept as is)`);
  return EXIT_OK;
};
export default extract;
