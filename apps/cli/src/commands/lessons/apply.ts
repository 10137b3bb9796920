import type { Context } from '../../context.js';
import { applyLessons, applyLessonsResult, type ApplyLessonsInput, type ApplyLessonsResult } from '../../operations/lessons.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { reportProblems } from '../protocol/shared.js';
import { applyInput } from './inputs.js';

/** `ratchet lessons apply [--dry-run]` */
async function apply(ctx: Context, input: ApplyLessonsInput): Promise<number> {
  let result: ApplyLessonsResult;
  try {
    result = await applyLessons(ctx, input);
  } catch (err) {
    return reportProblems(ctx, err);
  }
  const { dryRun, outcomes, manual, problems, recompiled, recompileError } = result;
  // An --id that matched no pending lesson is worth saying: it is usually a typo or already applied.
  for (const id of result.unknownIds) ctx.note(`${id}: no pending lesson with this id (see \`ratchet lessons list\`)`);
  const answer = applyLessonsResult(ctx, result);
  if (ctx.json) {
    ctx.emitJson(answer.document);
  } else {
    if (outcomes.length === 0) ctx.out('no pending lessons');
    for (const o of outcomes) {
      ctx.out(`${o.lesson_id}  ${dryRun && o.status === 'applied' ? 'would apply' : o.status}  ${o.command}: ${o.reason}`);
      if (dryRun && o.diff !== '') ctx.out(o.diff.trimEnd());
    }
    for (const l of manual) {
      const a = l.action.command === 'manual' ? l.action.parameters : undefined;
      ctx.out(`${l.lesson_id}  manual  needs a person: ${l.insight || '(no lesson text)'}${a?.text ? ` -> ${a.text}` : ''}${a?.note ? ` (${a.note})` : ''}  [ratchet lessons resolve ${l.lesson_id}]`);
    }
    for (const t of recompiled) {
      const path = displayPath(ctx, t.path);
      if (!dryRun) ctx.out(`recompiled ${path}: ${t.status}`);
      else if (t.status === 'unchanged') ctx.out(`would recompile ${path}: unchanged`);
      else ctx.out(`would recompile ${path}:\n${t.diff.trimEnd()}`);
    }
    for (const p of problems) ctx.io.stderr(`${displayPath(ctx, result.lessonsPath)}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
    if (recompileError !== undefined) {
      if (recompileError.problems !== undefined) for (const p of recompileError.problems) ctx.io.stderr(`recompile failed: ${displayPath(ctx, p.file)}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}: ${p.pointer ? `${p.pointer}: ` : ''}${p.message}\n`);
      else ctx.io.stderr(`recompile failed: ${recompileError.path !== undefined ? `${displayPath(ctx, recompileError.path)}: ` : ''}${recompileError.message}\n`);
    }
  }
  return answer.exitCode;
}
export default withInput(applyInput, apply);
