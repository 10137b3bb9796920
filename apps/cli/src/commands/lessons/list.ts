import type { Context } from '../../context.js';
import { listLessons, listLessonsResult, type ListLessonsInput } from '../../operations/lessons.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { reportingProblems } from '../protocol/shared.js';
import { listInput } from './inputs.js';

/** `ratchet lessons list [--status S]` */
async function list(ctx: Context, input: ListLessonsInput): Promise<number> {
  const r = await listLessons(ctx, input);
  const { path, lessons, problems } = r;
  const result = listLessonsResult(ctx, r);
  if (ctx.json) ctx.emitJson(result.document);
  else {
    if (lessons.length === 0) ctx.out(`no ${input.status ?? ''} lessons in ${displayPath(ctx, path)}`.replace('  ', ' '));
    for (const l of lessons) {
      const last = l.history[l.history.length - 1];
      const text = l.insight || (l.action.command === 'manual' ? l.action.parameters.text : '');
      ctx.out(`${l.lesson_id}  ${l.status.padEnd(8)}  ${l.action.command.padEnd(19)}  ${text}${last !== undefined && l.status === 'failed' ? `  (${last.reason})` : ''}`);
    }
    for (const p of problems) ctx.io.stderr(`${displayPath(ctx, path)}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
  }
  return result.exitCode;
}
export default reportingProblems(withInput(listInput, list));
