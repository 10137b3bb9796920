import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { moveTo } from '@ratchet/orchestrator';
import { renderPostMortemTemplate } from '@ratchet/self-correction';
import { writeFileAtomic } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { resolvePath } from '../../paths.js';
import { checkTaskId, logActivity, printDirective, requireSession, requireTrigger, sessionJson } from '../../task-session.js';

export const POSTMORTEM_DIR = 'postmortems';

/**
 * `ratchet task close --task-id ID`: after the plan is complete (or, abandoning it, from ERROR),
 * log TASK_END and write postmortems/<id>.md, the template whose "Corrective Actions & Lessons
 * Learned" section `ratchet lessons extract` reads. An existing report is never overwritten.
 */
export default async function taskClose(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const taskId = checkTaskId(options.taskId);
  const { file, session } = await requireSession(ctx, options);
  if (session.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${session.taskId}`, { code: 'wrong-task' });
  const abandoning = session.state === 'ERROR';
  requireTrigger(session, abandoning ? 'abandon_task' : 'analysis_complete');

  const relPath = `${POSTMORTEM_DIR}/${taskId}.md`;
  const path = resolvePath(ctx, relPath);
  if (existsSync(path)) throw new CliError(`${relPath} already exists; move it away so the new post-mortem does not overwrite it`, { code: 'postmortem-exists', file: path });
  const outcome = abandoning ? 'FAILURE' : 'SUCCESS';
  const endedAt = new Date().toISOString();
  const template = renderPostMortemTemplate({ taskId, startedAt: session.createdAt, endedAt, outcome: outcome.toLowerCase() });
  await writeFileAtomic(path, template, { createParentDirs: true });
  const templateSha256 = createHash('sha256').update(template).digest('hex');

  const closed = await file.update((s) => ({
    ...moveTo(s, 'POST_MORTEM', { now: () => new Date(), message: abandoning ? 'abandoned after failure' : 'plan complete' }),
    postMortem: { path: relPath, templateSha256, outcome },
  }));
  await logActivity(ctx, closed, { type: 'TASK_END', status: abandoning ? 'FAILURE' : 'SUCCESS', message: `post-mortem template: ${relPath}`, details: { postMortem: relPath, outcome } });

  if (ctx.json) {
    ctx.emitJson({ ok: true, ...sessionJson(closed), postMortem: relPath, outcome, next: printDirective({ ...ctx, out: () => undefined }, closed) });
    return EXIT_OK;
  }
  ctx.out(`Task ${taskId} closed (${outcome}); logged TASK_END. Post-mortem template: ${relPath}`);
  printDirective(ctx, closed);
  return EXIT_OK;
}
