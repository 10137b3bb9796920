import { nextDirective } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { taskSessionAt, printDirective } from '../../task-session.js';
import { runNextResult } from '../../operations/orchestrator.js';
import type { TaskSessionInput } from '../../operations/orchestrator-input.js';
import { withInput } from '../../option-values.js';
import { taskSessionInput } from './inputs.js';

/**
 * `ratchet run next`: the step to execute now. Read-only. Exit 0 when a step is pending; exit 1 when
 * the task's state has none (no task, planning, closed, ...): the refusal every orchestrator command
 * gives in a state it does not apply to, with what to do instead printed all the same.
 */
async function runNext(ctx: Context, input: TaskSessionInput): Promise<number> {
  if (ctx.json) {
    const result = await runNextResult(ctx, input);
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { session: file, exists } = taskSessionAt(ctx, input.session);
  const session = exists ? file.readSync() : undefined;
  const next = nextDirective(session);
  if (session) ctx.out(`Task ${session.taskId}: ${session.state}${next.step === undefined ? ' (no step to execute in this state)' : ''}`);
  printDirective(ctx, session);
  return next.step === undefined ? EXIT_PROBLEMS : EXIT_OK;
}

export default withInput(taskSessionInput, runNext);
