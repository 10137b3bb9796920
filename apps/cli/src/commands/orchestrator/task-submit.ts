import { createHash } from 'node:crypto';
import { fire } from '@ratchet/orchestrator';
import { NotFoundError, readTextFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { resolvePath } from '../../paths.js';
import { checkTaskId, logActivity, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';

/**
 * `ratchet task submit --task-id ID`: finish a closed task. Refused (exit 1) while the post-mortem is
 * still the untouched template: the post-mortem is the self-correction loop's input, so skipping it
 * is not an option. Walks POST_MORTEM -> SELF_CORRECTING -> AWAITING_SUBMISSION -> DONE.
 */
export default async function taskSubmit(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const taskId = checkTaskId(options.taskId);
  const { file, session } = await requireSession(ctx, options);
  if (session.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${session.taskId}`, { code: 'wrong-task' });
  requireTrigger(session, 'post_mortem_complete');
  const pm = session.postMortem;
  if (!pm) throw new CliError(`task ${taskId} has no post-mortem recorded; close it with \`ratchet task close --task-id ${taskId}\``, { code: 'no-postmortem' });

  let text: string;
  try {
    text = (await readTextFile(resolvePath(ctx, pm.path))).text;
  } catch (err) {
    if (err instanceof NotFoundError) throw new CliError(`${pm.path} is missing: the post-mortem must be filled in, not deleted`, { code: 'postmortem-missing', file: resolvePath(ctx, pm.path) });
    throw err;
  }
  if (createHash('sha256').update(text).digest('hex') === pm.templateSha256) {
    const msg = `still the untouched template: fill it in (at least its "Corrective Actions & Lessons Learned" section), then submit again`;
    if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(session), error: { code: 'postmortem-unfilled', message: msg } });
    else ctx.io.stderr(`${pm.path}: ${msg}\n`);
    return EXIT_PROBLEMS;
  }

  const now = (): Date => new Date();
  const done = await file.update((s) => fire(fire(fire(s, 'post_mortem_complete', { now }), 'lessons_applied', { now }), 'submit', { now }));
  await logActivity(ctx, done, { type: 'TASK_SUBMIT', status: 'SUCCESS', message: `task ${taskId} done`, details: { postMortem: pm.path, outcome: pm.outcome } });
  if (ctx.json) {
    ctx.emitJson({ ok: true, ...sessionJson(done), next: printDirective({ ...ctx, out: () => undefined }, done) });
    return EXIT_OK;
  }
  ctx.out(`Task ${taskId} submitted: DONE.`);
  printDirective(ctx, done);
  return EXIT_OK;
}
