import { existsSync } from 'node:fs';
import { moveTo } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { resolvePath } from '../../paths.js';
import { logActivity, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';

/**
 * `ratchet research done [--failed --message M]`: leave the research cycle, back to PLANNING (or to
 * ERROR). AWAITING_RESULT waits for the result: a successful finish needs the report the research
 * plan creates (exit 1 while it is missing; `--failed` says the research could not be done).
 */
export default async function researchDone(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const failed = options.failed === true;
  const message = options.message as string | undefined;
  const { file, session, machine } = await requireSession(ctx, options);
  requireTrigger(session, failed ? 'research_failed' : 'research_complete', machine);
  const report = session.research?.reportPath;
  if (!failed && report !== undefined && !existsSync(resolvePath(ctx, report))) {
    const msg = `the research plan's report ${report} does not exist yet: carry out ${session.research!.planPath} (it ends by writing the report), or finish with --failed --message "<why>"`;
    if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(session, machine), error: { code: 'research-report-missing', message: msg } });
    else ctx.io.stderr(`ratchet: ${msg}\n`);
    return EXIT_PROBLEMS;
  }
  const next = await file.update((s) => moveTo(s, failed ? 'ERROR' : 'PLANNING', { now: () => new Date(), machine, ...(message !== undefined ? { message } : {}) }));
  await logActivity(ctx, { ...next, state: session.state }, {
    type: 'RESEARCH_END',
    status: failed ? 'FAILURE' : 'SUCCESS',
    message: message ?? (failed ? 'research failed' : 'research complete'),
    details: { plan: session.research?.planPath ?? null },
  });
  if (ctx.json) ctx.emitJson({ ok: true, ...sessionJson(next, machine), next: printDirective({ ...ctx, out: () => undefined }, next) });
  else {
    ctx.out(failed ? `Research failed: task ${next.taskId} is in ERROR.` : `Research complete: task ${next.taskId} is back in PLANNING.`);
    printDirective(ctx, next);
  }
  return EXIT_OK;
}
