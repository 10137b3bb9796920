import { resolve } from 'node:path';
import { readTextFile } from '@ratchet/store';
import { addLessons, extractLessons } from '@ratchet/self-correction';
import type { CommandAction } from '../../program.js';
import { reportingProblems } from '../protocol/shared.js';
import { EXIT_OK, EXIT_USAGE } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';

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
  const lessonsLabel = displayPath(ctx, lessonsPath);
  if (ctx.json) {
    ctx.emitJson({
      ok: file.problems.length === 0,
      task_id: found.taskId,
      lessons: lessonsLabel,
      found: found.lessons.length,
      added,
      problems: file.problems.map((p) => ({ file: lessonsLabel, ...p })),
    });
  } else {
    if (found.lessons.length === 0) ctx.out(`${label}: the "${found.heading}" section has no Lesson/Action pairs`);
    for (const [i, lesson] of found.lessons.entries()) {
      const state = addedIds.has(lesson.lesson_id) ? 'added' : 'already known';
      const what = lesson.action.command === 'manual' ? `manual: a person must handle "${lesson.action.parameters.text || lesson.insight}"` : lesson.action.command;
      ctx.out(`${label}:${found.lines[i]}  ${lesson.lesson_id}  ${state}  ${what}`);
    }
    ctx.out(`${added.length} new of ${found.lessons.length} lessons in ${lessonsLabel} (task ${found.taskId})`);
    for (const p of file.problems) ctx.io.stderr(`${lessonsLabel}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
  }
  // The lessons were added, but a corrupt line in lessons.jsonl is an input error until someone fixes it.
  return file.problems.length > 0 ? EXIT_USAGE : EXIT_OK;
};
export default reportingProblems(extract);
