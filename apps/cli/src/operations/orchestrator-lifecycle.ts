/**
 * Starting, closing and submitting a task as typed operations (`ratchet task start|close|submit`;
 * the MCP tools `task_start`, `task_close`, `task_submit`): each changes the task session under its
 * lock, logs to the activity log and answers with a typed outcome; `xxxResult` turns the outcome into
 * the document `--json` prints (task-transition.v1, or the refusal's own document) and the command's
 * exit code. The commands render the same outcomes for people.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Machine } from '@ratchet/fsm-core';
import {
  ACTIVITY_LOG_PATH,
  DEFAULT_NETWORK_TARGET,
  DEFAULT_NETWORK_TIMEOUT_MS,
  OrientationError,
  POST_MORTEM_GAPS,
  createSession,
  fire,
  moveTo,
  nextDirective,
  orient,
  orientationReportFile,
  reorient,
  resetCommand,
  scanActivityLog,
  selfCorrectionGaps,
  type ActivityInput,
  type OrientationReport,
  type Session,
} from '@ratchet/orchestrator';
import { POSTMORTEMS_DIR, renderPostMortemTemplate } from '@ratchet/self-correction';
import { readTextFileSync, writeFileAtomic } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { reviewDetails } from '../orientation-review.js';
import { displayPath, resolvePath } from '../paths.js';
import { pinTaskRules } from '../rule-pins.js';
import { selfCorrectionEvidence } from '../self-correction-evidence.js';
import { activityLogOf, asCliError, checkTaskId, entryOf, lifecycleMachine, logActivity, requireSessionAt, requireTrigger, sessionJson, taskSessionAt } from '../task-session.js';
import type { OperationResult } from './invoke.js';
import type { TaskCloseInput, TaskStartInput, TaskSubmitInput } from './orchestrator-input.js';

export type { TaskCloseInput, TaskStartInput, TaskSubmitInput } from './orchestrator-input.js';

export const ORIENTATION_REPORT = '.ratchet/orientation.json';

/** Where the post-mortem goes: self-correction's place, where orientation looks for the last one. */
export const POSTMORTEM_DIR = POSTMORTEMS_DIR;

// ---------------------------------------------------------------------------------------------
// task start

/** Oriented and in PLANNING, or orientation failed at level 1 and the task is in ERROR. */
export type TaskStartOutcome =
  | { started: true; taskId: string; session: Session; machine: Machine; report: OrientationReport }
  | { started: false; taskId: string; session: Session; machine: Machine; error: OrientationError };

/**
 * Begin (or, after a failure, re-orient) a task and run the orientation cascade. Orientation failing
 * at L1 leaves the task in ERROR with the reason (an outcome, exit 2); any other failure after the
 * session moved puts it back where it was: a task is either started and logged, or not started.
 */
export async function startTask(ctx: Context, input: TaskStartInput): Promise<TaskStartOutcome> {
  const taskId = checkTaskId(input.taskId);
  const network = networkProbe(input);
  const { session: file } = taskSessionAt(ctx, input.session, taskId);
  const now = (): Date => new Date();
  const machine = await lifecycleMachine(ctx);

  let orienting: Session;
  const current = await file.read();
  try {
    orienting = await file.update((s) => {
      if (s.taskId === taskId && (s.state === 'ERROR' || s.state === 'ORIENTING')) {
        // Re-orienting drops the failed run's stack (kept in ERROR for inspection): no stale call stack.
        return s.state === 'ERROR' ? reorient(s, { now, machine, message: 'reorient' }) : s;
      }
      if (s.state !== 'START' && s.state !== 'DONE') {
        const what = s.taskId === taskId ? `task ${taskId} is already started` : `task ${s.taskId} is in progress`;
        throw new CliError(`${what} (state ${s.state}); finish it first, or use another --session file. See \`ratchet run status\`.`, { code: 'task-in-progress', exitCode: EXIT_PROBLEMS });
      }
      const fresh = { ...createSession(taskId, { now, machine }), sessionId: randomUUID() };
      return moveTo(fresh, 'ORIENTING', { now, machine });
    });
  } catch (err) {
    asCliError(err, current, 'task start');
  }

  // From here on, a failure (the log cannot be written, the report cannot be saved) puts the
  // session back where it was: a task is either started and logged, or not started at all.
  const rollback = async (err: unknown): Promise<never> => {
    await file.update(() => current).catch(() => undefined);
    throw err;
  };
  warnAboutLog(ctx);
  // The rules this task runs by are fixed now: an edit of a dialect, an FSM or the config applies to the next task.
  if (orienting.sessionId !== undefined && orienting.sessionId !== current.sessionId) await pinTaskRules(ctx.cwd, orienting.sessionId).catch(rollback);

  let report: OrientationReport;
  try {
    // The review of what the last tasks left comes from self-correction, loaded only here (the CLI composes the two packages).
    const review = async (root: string) => (await import('@ratchet/self-correction')).reviewSelfCorrection(root);
    report = await orient({ root: ctx.cwd, now, env: ctx.io.env, network, review });
  } catch (err) {
    if (!(err instanceof OrientationError)) return rollback(err);
    const failed = await file.update((s) => moveTo(s, 'ERROR', { now, machine, message: err.message }));
    await logActivity(ctx, failed, { type: 'TASK_START', status: 'FAILURE', message: err.message, phase: 'ORIENTING', details: { level: 1, code: err.code } }).catch(rollback);
    return { started: false, taskId, session: failed, machine, error: err };
  }

  await writeFileAtomic(resolvePath(ctx, ORIENTATION_REPORT), `${JSON.stringify(orientationReportFile(report, { taskId, sessionId: orienting.sessionId }), null, 2)}\n`, { createParentDirs: true }).catch(rollback);
  const { level2, level3 } = report;
  const broken = level2.artifacts.filter((a) => !a.ok);
  // Logged before the move to PLANNING: a log that cannot be written leaves the task unstarted.
  await logActivity(ctx, orienting, {
    type: 'TASK_START',
    status: 'SUCCESS',
    message: `oriented as ${report.level1.agent.name}`,
    phase: 'ORIENTING',
    details: {
      agent: report.level1.agent.name,
      artifacts: level2.artifacts.length,
      brokenArtifacts: broken.map((a) => a.path),
      review: reviewDetails(level2.review),
      filesystem: level3.filesystem.ok,
      network: level3.network.skipped ? 'skipped' : level3.network.ok,
      report: ORIENTATION_REPORT,
    },
  }).catch(rollback);
  const planning = await file.update((s) => moveTo(s, 'PLANNING', { now, machine }));
  return { started: true, taskId, session: planning, machine, report };
}

/** task-transition.v1 (exit 0), or the orientation failure with its place (exit 2). */
export function startTaskResult(ctx: Context, outcome: TaskStartOutcome): OperationResult {
  if (!outcome.started) {
    const err = outcome.error;
    return {
      exitCode: EXIT_USAGE,
      document: { ok: false, ...sessionJson(outcome.session, outcome.machine), error: { code: err.code, message: err.message, file: displayPath(ctx, err.path), line: err.line, column: err.column } },
    };
  }
  return {
    exitCode: EXIT_OK,
    document: versioned('task-transition', { ok: true, ...sessionJson(outcome.session, outcome.machine), report: ORIENTATION_REPORT, orientation: outcome.report, next: nextDirective(outcome.session) }),
  };
}

/** One warning per line of an existing activity log that is not a JSON object (file:line); the lines are kept. */
function warnAboutLog(ctx: Context): void {
  const path = resolvePath(ctx, ACTIVITY_LOG_PATH);
  let text: string;
  try {
    text = readTextFileSync(path).text;
  } catch {
    // Missing, or not a readable file: appending reports it with its path, and the task is not started.
    return;
  }
  const label = displayPath(ctx, path);
  for (const p of scanActivityLog(text, label).problems) ctx.io.stderr(`warning: ${label}:${p.line}: ${p.message} (line kept as is)\n`);
}

function networkProbe(input: TaskStartInput): { host: string; port: number; timeoutMs: number } | false {
  if (input.network === false) return false;
  const timeoutMs = input.networkTimeout === undefined ? DEFAULT_NETWORK_TIMEOUT_MS : Number(input.networkTimeout);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) throw new CliError(`--network-timeout ${String(input.networkTimeout)}: expected milliseconds from 1 to 60000`);
  const target = input.networkTarget;
  if (target === undefined) return { ...DEFAULT_NETWORK_TARGET, timeoutMs };
  const m = /^(.+):(\d{1,5})$/.exec(target);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new CliError(`--network-target ${target}: expected host:port`);
  return { host: m[1]!, port, timeoutMs };
}

// ---------------------------------------------------------------------------------------------
// task close

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

// ---------------------------------------------------------------------------------------------
// task submit

/** The trigger `task submit` fires first from each state on the way to DONE. */
const SUBMIT_FROM: Record<string, string> = { POST_MORTEM: 'post_mortem_complete', SELF_CORRECTING: 'lessons_applied', AWAITING_SUBMISSION: 'submit' };

/** What self-correction still lacks, in order (see selfCorrectionGaps). */
export type SubmitGap = ReturnType<typeof selfCorrectionGaps>[number];

/** DONE, or refused with everything still missing (the task perhaps moved on to SELF_CORRECTING). */
export type TaskSubmitOutcome = { submitted: true; taskId: string; session: Session; machine: Machine } | { submitted: false; taskId: string; session: Session; machine: Machine; missing: SubmitGap[] };

/**
 * Finish a closed task once self-correction is done. Refused (listing everything still missing, in
 * order) until the post-mortem has every section written and at least one lesson, its lessons are in
 * the lessons file, each one is applied, failed with a reason or manual, and AGENTS.md is current if
 * a lesson changed a protocol. A filled-in post-mortem moves the task to SELF_CORRECTING even when
 * lessons are still missing; the rest walks SELF_CORRECTING -> AWAITING_SUBMISSION -> DONE.
 */
export async function submitTask(ctx: Context, input: TaskSubmitInput): Promise<TaskSubmitOutcome> {
  const taskId = checkTaskId(input.taskId);
  const { file, session, machine } = await requireSessionAt(ctx, input.session);
  if (session.taskId !== taskId) throw new CliError(`--task-id ${taskId}: the session's task is ${session.taskId}`, { code: 'wrong-task' });
  // Wherever on the way to DONE the task stands (a session stopped in AWAITING_SUBMISSION included), the gate below decides.
  requireTrigger(session, SUBMIT_FROM[session.state] ?? 'post_mortem_complete', machine, 'task submit');
  const pm = session.postMortem;
  if (!pm) {
    const how = session.state === 'POST_MORTEM' ? `close it with \`ratchet task close --task-id ${taskId}\`` : `the lifecycle has no way back to close it from ${session.state}: a person resets it with \`${resetCommand(taskId)}\``;
    throw new CliError(`task ${taskId} has no post-mortem recorded; ${how}`, { code: 'no-postmortem', exitCode: EXIT_PROBLEMS });
  }

  const gaps = selfCorrectionGaps(session, await selfCorrectionEvidence(ctx, session));
  const now = (): Date => new Date();
  const postMortemDone = !gaps.some((g) => POST_MORTEM_GAPS.has(g.code));
  // Every update re-checks the state inside the lock: a concurrent submit may have moved it on.
  const enter = (s: Session): Session => (s.state === 'POST_MORTEM' && postMortemDone ? fire(s, 'post_mortem_complete', { now, machine }) : s);

  if (gaps.length > 0) {
    const current = postMortemDone && session.state === 'POST_MORTEM' ? await file.update(enter) : session;
    return { submitted: false, taskId, session: current, machine, missing: gaps };
  }

  const done = await file.update((s) => {
    let t = enter(s);
    if (t.state === 'SELF_CORRECTING') t = fire(t, 'lessons_applied', { now, machine });
    return fire(t, 'submit', { now, machine });
  });
  await logActivity(ctx, done, { type: 'TASK_SUBMIT', status: 'SUCCESS', message: `task ${taskId} done`, details: { postMortem: pm.path, outcome: pm.outcome } });
  return { submitted: true, taskId, session: done, machine };
}

/** task-transition.v1 (exit 0), or the refusal listing what is missing (exit 1). */
export function submitTaskResult(_ctx: Context, o: TaskSubmitOutcome): OperationResult {
  if (!o.submitted) return { exitCode: EXIT_PROBLEMS, document: { ok: false, ...sessionJson(o.session, o.machine), missing: o.missing, next: nextDirective(o.session) } };
  return { exitCode: EXIT_OK, document: versioned('task-transition', { ok: true, ...sessionJson(o.session, o.machine), next: nextDirective(o.session) }) };
}
