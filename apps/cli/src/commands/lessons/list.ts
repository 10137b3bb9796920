import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_USAGE } from '../../exit-codes.js';
import { listLessons, type ListLessonsInput } from '../../operations/lessons.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { reportingProblems } from '../protocol/shared.js';
import { listInput } from './inputs.js';

/** `ratchet lessons list [--status S]` */
async function list(ctx: Context, input: ListLessonsInput): Promise<number> {
  const { path, lessons, problems } = await listLessons(ctx, input);
  if (ctx.json) ctx.emitJson({ ok: problems.length === 0, lessons, problems: problems.map((p) => ({ file: displayPath(ctx, path), ...p })) });
  else {
    if (lessons.length === 0) ctx.out(`no ${input.status ?? ''} lessons in ${displayPath(ctx, path)}`.replace('  ', ' '));
    for (const l of lessons) {
      const last = l.history[l.history.length - 1];
      const text = l.insight || (l.action.command === 'manual' ? l.action.parameters.text : '');
      ctx.out(`${l.lesson_id}  ${l.status.padEnd(8)}  ${l.action.command.padEnd(19)}  ${text}${last !== undefined && l.status === 'failed' ? `  (${last.reason})` : ''}`);
    }
    for (const p of problems) ctx.io.stderr(`${displayPath(ctx, path)}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
  }
  // The good lessons are listed; a corrupt line is still an input error.
  return problems.length > 0 ? EXIT_USAGE : EXIT_OK;
}
export default reportingProblems(withInput(listInput, list));
