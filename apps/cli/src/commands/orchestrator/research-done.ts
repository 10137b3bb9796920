import { moveTo } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { logActivity, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';

/** `ratchet research done [--failed --message M]`: leave the research cycle, back to PLANNING (or to ERROR). */
export default async function researchDone(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const failed = options.failed === true;
  const message = options.message as string | undefined;
  const { file, session } = await requireSession(ctx, options);
  requireTrigger(session, failed ? 'research_failed' : 'research_complete');
  const next = await file.update((s) => moveTo(s, failed ? 'ERROR' : 'PLANNING', { now: () => new Date(), ...(message !== undefined ? { message } : {}) }));
  await logActivity(ctx, { ...next, state: session.state }, {
    type: 'RESEARCH_END',
    status: failed ? 'FAILURE' : 'SUCCESS',
    message: message ?? (failed ? 'research failed' : 'research complete'),
    details: { plan: session.research?.planPath ?? null },
  });
  if (ctx.json) ctx.emitJson({ ok: true, ...sessionJson(next), next: printDirective({ ...ctx, out: () => undefined }, next) });
  else {
    ctx.out(failed ? `Research failed: task ${next.taskId} is in ERROR.` : `Research complete: task ${next.taskId} is back in PLANNING.`);
    printDirective(ctx, next);
  }
  return EXIT_OK;
}
