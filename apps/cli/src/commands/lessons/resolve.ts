import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { resolveLesson, type ResolveLessonInput } from '../../operations/lessons.js';
import { withInput } from '../../option-values.js';
import { reportingProblems } from '../protocol/shared.js';
import { resolveInput } from './inputs.js';

/** `ratchet lessons resolve <lesson_id> [--note TEXT]` */
async function resolveCmd(ctx: Context, input: ResolveLessonInput): Promise<number> {
  const lesson = await resolveLesson(ctx, input);
  if (ctx.json) ctx.emitJson({ ok: true, lesson });
  else ctx.out(`${lesson.lesson_id}: resolved`);
  return EXIT_OK;
}
export default reportingProblems(withInput(resolveInput, resolveCmd));
