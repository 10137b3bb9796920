import { nextDirective } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { lifecycleMachine, openTaskSession, printDirective, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

/** `ratchet run next`: the step to execute now (or what to do in the current state). Read-only. */
export default async function runNext(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const { session: file, exists } = openTaskSession(ctx, options);
  const session = exists ? file.readSync() : undefined;
  if (ctx.json) {
    ctx.emitJson(versioned('run-next', { ok: true, ...(session ? sessionJson(session, await lifecycleMachine(ctx)) : { state: 'START' }), next: nextDirective(session) }));
    return EXIT_OK;
  }
  if (session) ctx.out(`Task ${session.taskId}: ${session.state}`);
  printDirective(ctx, session);
  return EXIT_OK;
}
