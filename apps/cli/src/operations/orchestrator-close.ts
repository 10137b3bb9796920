/**
 * Closing a task as a typed operation (`ratchet task close`; the MCP tool `task_close`): the task
 * moves to POST_MORTEM under the session's lock, its post-mortem template is written and TASK_END
 * logged once; `closeTaskResult` turns the outcome into the task-transition.v1 document and exit code.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Machine } from '@ratchet/fsm-core';
import { moveTo, nextDirective, type ActivityInput, type Session } from '@ratchet/orchestrator';
import { POSTMORTEMS_DIR, renderPostMortemTemplate } from '@ratchet/self-correction';
import { writeFileAtomic } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { displayPath, resolvePath } from '../paths.js';
import { activityLogOf, checkTaskId, entryOf, requireSessionAt, requireTrigger, sessionJson } from '../task-session.js';
import type { OperationResult } from './invoke.js';
import type { TaskCloseInput } from './orchestrator-input.js';

export type { TaskCloseInput } from './orchestrator-input.js';

/** Where the post-mortem goes: self-correction's place, where orientation looks for the last one. */
export const POSTMORTEM_DIR = POSTMORTEMS_DIR;

/** Thrown inside the session update to leave the file alone: the task was closed already. */
class AlreadyClosed extends Error {
  constructor(readonly session: Session) {
    super('already closed');
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The template `close` wrote for this session: a function of the session alone, so a retry writes the
 * same bytes. An abandoned task's carries why it was given up (the reason `--abandon --reason` asks
 * for, or the failure that put it in ERROR), on an `Abandoned:` line under the outcome.
 */
function templateOf(session: Session): string {
  const entered = session.history.findLast((h) => h.to === 'POST_MORTEM');
  const outcome = session.postMortem?.outcome ?? 'SUCCESS';
  const text = renderPostMortemTemplate({ taskId: session.taskId, startedAt: session.createdAt, endedAt: entered?.at ?? session.updatedAt, outcome: outcome.toLowerCase() });
  return outcome === 'FAILURE' && entered?.message ? withHeaderLine(text, `- **Abandoned:** ${entered.message.replace(/\s+/g, ' ').trim()}`) : text;
}

/** `line` added to the template's header list, after its Outcome line (or, failing that, after the title). */
function withHeaderLine(template: string, line: string): string {
  const lines = template.split('\n');
  const outcome = lines.findIndex((l) => l.startsWith('- **Outcome:**'));
  lines.splice(outcome >= 0 ? outcome + 1 : 1, 0, line);
  return lines.join('\n');
}

/** The task in POST_MORTEM with its template written and TASK_END logged; on a retry, what was repaired. */
export interface TaskCloseOutcome {
  taskId: string;
  session: Session;
  machine: Machine;
  /** postmortems/<id>.md, relative to the project. */
  postMortem: string;
  outcome: 'SUCCESS' | 'FAILURE';
  /** The task was closed by an earlier call: only what was missing was done. */
  alreadyClosed: boolean;
  repaired: string[];
}

/**
 * After the plan is complete (or, abandoning it, from ERROR; or from PLANNING with abandon and a
 * reason), move the task to POST_MORTEM (a FAILURE when abandoned), write postmortems/<id>.md (the
 * template whose "Corrective Actions & Lessons Learned" section `ratchet lessons extract` reads) and
 * log TASK_END.
 *
 * Retryable: the session is updated first, recording the report's path, hash and outcome, and the
 * template is a function of the session. If writing the report or the log fails, running close
 * again finishes the job: it writes the report if it is missing (the same bytes), logs TASK_END if
 * the log has none for this session (checked and appended under the log's lock, so concurrent
 * closes log it once), and changes nothing else. A report that exists before the first close is
 * never overwritten (the close is refused and nothing changes); one that exists after it is the
 * user's (filled in or not) and is kept.
 */
export async function closeTask(ctx: Context, input: TaskCloseInput): Promise<TaskCloseOutcome> {
  const taskId = checkTaskId(input.taskId);
  const abandon = input.abandon === true;
  const reason = input.reason?.trim();
  if (abandon && !reason) throw new CliError('task close --abandon needs --reason "<why the task is given up>": the failure post-mortem starts from it', { code: 'no-reason' });
  if (!abandon && reason !== undefined) throw new CliError('--reason goes with --abandon', { code: 'reason-without-abandon' });
  const { file, session, machine } = await requireSessionAt(ctx, input.session);
  if (session.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${session.taskId}`, { code: 'wrong-task' });
  const relPath = `${POSTMORTEM_DIR}/${taskId}.md`;
  const path = resolvePath(ctx, relPath);

  let closed: Session;
  let retry = false;
  try {
    closed = await file.update((s) => {
      if (s.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${s.taskId}`, { code: 'wrong-task' });
      if (s.state === 'POST_MORTEM' && s.postMortem?.path === relPath) throw new AlreadyClosed(s);
      // Giving up is explicit: from PLANNING only with --abandon (and a reason); from ERROR it is the only way to close.
      const abandoning = s.state === 'ERROR' || (abandon && s.state === 'PLANNING');
      if (abandon && !abandoning) requireTrigger(s, 'abandon_task', machine, 'task close --abandon');
      requireTrigger(s, abandoning ? 'abandon_task' : 'analysis_complete', machine, abandoning ? 'task close --abandon' : 'task close');
      if (existsSync(path)) throw new CliError(`${relPath} already exists; move it away so the new post-mortem does not overwrite it`, { code: 'postmortem-exists', file: path, exitCode: EXIT_PROBLEMS });
      const endedAt = new Date();
      const outcome = abandoning ? 'FAILURE' : 'SUCCESS';
      const why = s.state === 'ERROR' ? 'abandoned after failure' : 'abandoned while planning';
      // Without --reason, a failed task's reason is the failure that put it in ERROR.
      const because = reason ?? (s.state === 'ERROR' ? s.history.findLast((h) => h.to === 'ERROR')?.message : undefined);
      const next = moveTo(s, 'POST_MORTEM', { now: () => endedAt, machine, message: abandoning ? (because ? `${why}: ${because}` : why) : 'plan complete' });
      const draft: Session = { ...next, postMortem: { path: relPath, templateSha256: '', outcome } };
      return { ...draft, postMortem: { path: relPath, templateSha256: sha256(templateOf(draft)), outcome } };
    });
  } catch (err) {
    if (!(err instanceof AlreadyClosed)) throw err;
    closed = err.session;
    retry = true;
  }
  const pm = closed.postMortem!;

  const repaired: string[] = [];
  try {
    if (!existsSync(path)) {
      const template = templateOf(closed);
      await writeFileAtomic(path, template, { createParentDirs: true });
      if (retry) repaired.push(`wrote the missing post-mortem ${relPath}`);
      // Same renderer, same bytes; if a newer Ratchet renders it differently, record what was written
      // so `task submit` still tells the untouched template from a filled-in report.
      if (sha256(template) !== pm.templateSha256) {
        closed = await file.update((s) => (s.postMortem?.path === relPath ? { ...s, postMortem: { ...s.postMortem, templateSha256: sha256(template) } } : s));
      }
    }
    const abandoned = closed.history.findLast((h) => h.to === 'POST_MORTEM')?.message;
    const logged = await logTaskEndOnce(ctx, closed, { type: 'TASK_END', status: pm.outcome, message: `post-mortem template: ${relPath}`, details: { postMortem: relPath, outcome: pm.outcome, ...(pm.outcome === 'FAILURE' && abandoned ? { abandoned } : {}) } });
    if (retry && logged) repaired.push('logged the missing TASK_END');
  } catch (err) {
    // The close is recorded; say so, and that running it again finishes what failed.
    const placed = err as { reason?: unknown; path?: unknown; code?: unknown };
    if (typeof placed.reason !== 'string' || typeof placed.path !== 'string') throw err;
    throw new CliError(`${placed.reason}. Task ${taskId} is closed (POST_MORTEM); fix this, then run \`ratchet task close --task-id ${taskId}\` again to finish (it writes only what is missing)`, {
      code: typeof placed.code === 'string' ? placed.code : 'io-error',
      file: displayPath(ctx, placed.path),
    });
  }
  return { taskId, session: closed, machine, postMortem: relPath, outcome: pm.outcome, alreadyClosed: retry, repaired };
}

export function closeTaskResult(_ctx: Context, o: TaskCloseOutcome): OperationResult {
  return {
    exitCode: EXIT_OK,
    document: versioned('task-transition', { ok: true, ...sessionJson(o.session, o.machine), postMortem: o.postMortem, outcome: o.outcome, alreadyClosed: o.alreadyClosed, repaired: o.repaired, next: nextDirective(o.session) }),
  };
}

/**
 * Append this session's TASK_END unless the log has it, as one locked read-modify-write of the log:
 * two closes racing (the first, and a retry that saw the task closed) log it exactly once.
 */
async function logTaskEndOnce(ctx: Context, session: Session, input: ActivityInput): Promise<boolean> {
  const sessionId = session.sessionId ?? session.taskId;
  const log = await activityLogOf(ctx);
  return log.appendOnce(entryOf(ctx, session, input), (entries) => entries.some((e) => e.action.type === 'TASK_END' && e.session_id === sessionId && e.task.id === session.taskId));
}
