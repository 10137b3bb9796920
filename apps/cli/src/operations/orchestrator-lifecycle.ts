/**
 * Starting and submitting a task as typed operations (`ratchet task start|submit`; the MCP tools
 * `task_start`, `task_submit`; closing is orchestrator-close.ts): each changes the task session under its
 * lock, logs to the activity log and answers with a typed outcome; `xxxResult` turns the outcome into
 * the document `--json` prints (task-transition.v1, or the refusal's own document) and the command's
 * exit code. The commands render the same outcomes for people.
 */
import { randomUUID } from 'node:crypto';
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
  type OrientationReport,
  type Session,
} from '@ratchet/orchestrator';
import { readTextFileSync, writeFileAtomic } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { reviewDetails } from '../orientation-review.js';
import { displayPath, resolvePath } from '../paths.js';
import { pinTaskRules } from '../rule-pins.js';
import { selfCorrectionEvidence } from '../self-correction-evidence.js';
import { asCliError, checkTaskId, lifecycleMachine, logActivity, requireSessionAt, requireTrigger, sessionJson, taskSessionAt } from '../task-session.js';
import type { OperationResult } from './invoke.js';
import type { TaskStartInput, TaskSubmitInput } from './orchestrator-input.js';

export type { TaskStartInput, TaskSubmitInput } from './orchestrator-input.js';

export const ORIENTATION_REPORT = '.ratchet/orientation.json';

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
