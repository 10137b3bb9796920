import type { Context } from '../../context.js';
import { extractLessons, extractLessonsResult, type ExtractLessonsInput } from '../../operations/lessons.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { reportingProblems } from '../protocol/shared.js';
import { extractInput } from './inputs.js';

/** `ratchet lessons extract <postmortem.md>` */
async function extract(ctx: Context, input: ExtractLessonsInput): Promise<number> {
  const r = await extractLessons(ctx, input);
  const addedIds = new Set(r.added.map((l) => l.lesson_id));
  const label = displayPath(ctx, r.postmortemPath);
  const lessonsLabel = displayPath(ctx, r.lessonsPath);
  const result = extractLessonsResult(ctx, r);
  if (ctx.json) {
    ctx.emitJson(result.document);
  } else {
    if (r.found.length === 0) ctx.out(`${label}: the "${r.heading}" section has no Lesson/Action pairs`);
    for (const { lesson, line } of r.found) {
      const state = addedIds.has(lesson.lesson_id) ? 'added' : 'already known';
      const what = lesson.action.command === 'manual' ? `manual: a person must handle "${lesson.action.parameters.text || lesson.insight}"` : lesson.action.command;
      ctx.out(`${label}:${line}  ${lesson.lesson_id}  ${state}  ${what}`);
    }
    ctx.out(`${r.added.length} new of ${r.found.length} lessons in ${lessonsLabel} (task ${r.taskId})`);
    for (const p of r.problems) ctx.io.stderr(`${lessonsLabel}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
  }
  return result.exitCode;
}
export default reportingProblems(withInput(extractInput, extract));
