import { nextDirective } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { lifecycleMachine, openTaskSession, printDirective, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

/**
 * `ratchet run next`: the step to execute now. Read-only. Exit 0 when a step is pending; exit 1 when
 * the task's state has none (no task, planning, closed, ...): the refusal every orchestrator command
 * gives in a state it does not apply to, with what to do instead printed all the same.
 */
export default async function runNext(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const { session: file, exists } = openTaskSession(ctx, options);
  const session = exists ? file.readSync() : undefined;
  const next = nextDirective(session);
  const code = next.step === undefined ? EXIT_PROBLEMS : EXIT_OK;
  if (ctx.json) {
    ctx.emitJson(versioned('run-next', { ok: code === EXIT_OK, ...(session ? sessionJson(session, await lifecycleMachine(ctx)) : { state: 'START' }), next }));
    return code;
  }
  if (session) ctx.out(`Task ${session.taskId}: ${session.state}${next.step === undefined ? ' (no step to execute in this state)' : ''}`);
  printDirective(ctx, session);
  return code;
}
