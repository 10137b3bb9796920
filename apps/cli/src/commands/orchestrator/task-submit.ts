import type { Context } from '../../context.js';
import { submitTask, submitTaskResult, type TaskSubmitInput } from '../../operations/orchestrator-lifecycle.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { taskSubmitInput } from './inputs.js';

/**
 * `ratchet task submit --task-id ID`: finish a closed task once self-correction is done
 * (src/operations/orchestrator-lifecycle.ts). Refused (exit 1, listing everything still missing, in
 * order) until it is.
 */
async function taskSubmit(ctx: Context, input: TaskSubmitInput): Promise<number> {
  const outcome = await submitTask(ctx, input);
  const result = submitTaskResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (!outcome.submitted) {
    ctx.io.stderr(`Task ${outcome.taskId} cannot be submitted yet (${outcome.session.state}); missing:\n`);
    for (const [i, g] of outcome.missing.entries()) ctx.io.stderr(`  ${i + 1}. ${g.what}\n     -> ${g.command}\n`);
    return result.exitCode;
  }
  ctx.out(`Task ${outcome.taskId} submitted: DONE.`);
  printDirective(ctx, outcome.session);
  return result.exitCode;
}

export default withInput(taskSubmitInput, taskSubmit);
