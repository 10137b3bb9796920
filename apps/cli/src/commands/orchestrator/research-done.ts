import { leaveResearch, returnState } from '@ratchet/orchestrator';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { loadProjectDialect } from '../../plan-project.js';
import { checkResearchReport, reportErrorCode } from '../../research-report.js';
import { withBaseline } from '../../step-effect.js';
import { asCliError, logActivity, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

/**
 * `ratchet research done [--failed --message M]`: leave the research cycle once its plan's steps are
 * done (AWAITING_RESULT), back to where it started: PLANNING, or EXECUTING with the paused plan's
 * step next. A successful finish needs the report the research plan creates, with findings in it
 * (exit 1 while it is missing, empty or headings only); `--failed` says the research could not be
 * done (to ERROR, also midway through the plan; exit 1, a failure report).
 */
export default async function researchDone(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const failed = options.failed === true;
  const message = options.message as string | undefined;
  const { file, session, machine } = await requireSession(ctx, options);
  requireTrigger(session, failed ? 'research_failed' : returnState(session) === 'EXECUTING' ? 'research_resumed' : 'research_complete', machine, failed ? 'research done --failed' : 'research done');
  const report = session.research?.reportPath;
  const problem = failed || report === undefined ? undefined : checkResearchReport(ctx, report);
  if (problem !== undefined) {
    const msg = `${problem.message}: write the findings of ${session.research!.planPath} into it, then run \`ratchet research done\` again (or finish with --failed --message "<why>")`;
    if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(session, machine), error: { code: reportErrorCode(problem), message: msg, file: report } });
    else ctx.io.stderr(`ratchet: ${msg}\n`);
    return EXIT_PROBLEMS;
  }
  const now = (): Date => new Date();
  let next;
  try {
    // Back in EXECUTING the paused step is current again: its file is recorded as it is now.
    next = await file.update((s) => withBaseline(ctx, leaveResearch(s, { failed, ...(message !== undefined ? { message } : {}) }, { now, machine }), loadProjectDialect(ctx)));
  } catch (err) {
    asCliError(err, session, 'research done');
  }
  await logActivity(ctx, { ...next, state: session.state }, {
    type: 'RESEARCH_END',
    status: failed ? 'FAILURE' : 'SUCCESS',
    message: message ?? (failed ? 'research failed' : 'research complete'),
    details: { plan: session.research?.planPath ?? null, report: report ?? null, returnedTo: next.state },
  });
  if (ctx.json) ctx.emitJson(versioned('task-transition', { ok: true, ...sessionJson(next, machine), next: printDirective({ ...ctx, out: () => undefined }, next) }));
  else {
    ctx.out(failed ? `Research failed: task ${next.taskId} is in ERROR.` : `Research complete: task ${next.taskId} is back in ${next.state}${next.state === 'EXECUTING' ? ' (the paused plan resumes)' : ''}.`);
    printDirective(ctx, next);
  }
  // Giving up is a failure report, like `run done --failed`: exit 1.
  return failed ? EXIT_PROBLEMS : EXIT_OK;
}
