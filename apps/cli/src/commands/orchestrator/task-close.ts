import type { Context } from '../../context.js';
import { closeTask, closeTaskResult, type TaskCloseInput } from '../../operations/orchestrator-close.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { taskCloseInput } from './inputs.js';

/**
 * `ratchet task close --task-id ID`: move the task to POST_MORTEM, write postmortems/<id>.md and
 * log TASK_END (src/operations/orchestrator-lifecycle.ts: retryable, and never overwriting a report).
 */
async function taskClose(ctx: Context, input: TaskCloseInput): Promise<number> {
  const closed = await closeTask(ctx, input);
  const result = closeTaskResult(ctx, closed);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { taskId, outcome, postMortem, repaired } = closed;
  if (!closed.alreadyClosed) ctx.out(`Task ${taskId} closed (${outcome}); logged TASK_END. Post-mortem template: ${postMortem}`);
  else ctx.out(`Task ${taskId} was already closed (${outcome}); ${repaired.length > 0 ? `${repaired.join('; ')}.` : 'nothing left to do.'} Post-mortem: ${postMortem}`);
  printDirective(ctx, closed.session);
  return result.exitCode;
}

export default withInput(taskCloseInput, taskClose);
