import { nextDirective } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { openTaskSession, printDirective } from '../../task-session.js';
import { runNextResult } from '../../operations/orchestrator.js';
import { stringOption } from '../../option-values.js';

/**
 * `ratchet run next`: the step to execute now. Read-only. Exit 0 when a step is pending; exit 1 when
 * the task's state has none (no task, planning, closed, ...): the refusal every orchestrator command
 * gives in a state it does not apply to, with what to do instead printed all the same.
 */
export default async function runNext(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  if (ctx.json) {
    const result = await runNextResult(ctx, { session: stringOption(options, 'session') });
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { session: file, exists } = openTaskSession(ctx, options);
  const session = exists ? file.readSync() : undefined;
  const next = nextDirective(session);
  if (session) ctx.out(`Task ${session.taskId}: ${session.state}${next.step === undefined ? ' (no step to execute in this state)' : ''}`);
  printDirective(ctx, session);
  return next.step === undefined ? EXIT_PROBLEMS : EXIT_OK;
}
