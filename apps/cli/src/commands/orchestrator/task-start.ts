import { randomUUID } from 'node:crypto';
import {
  DEFAULT_NETWORK_TARGET,
  DEFAULT_NETWORK_TIMEOUT_MS,
  ACTIVITY_LOG_PATH,
  OrientationError,
  createSession,
  moveTo,
  orient,
  orientationReportFile,
  reorient,
  scanActivityLog,
  type OrientationReport,
  type Session,
} from '@ratchet/orchestrator';
import { readTextFileSync, writeFileAtomic } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { reviewDetails, reviewLines } from '../../orientation-review.js';
import { pinTaskRules } from '../../rule-pins.js';
import { asCliError, checkTaskId, lifecycleMachine, logActivity, openTaskSession, printDirective, sessionJson } from '../../task-session.js';
import { versioned } from '../../output/json-output.js';

export const ORIENTATION_REPORT = '.ratchet/orientation.json';

/**
 * `ratchet task start --task-id ID`: begin (or, after a failure, re-orient) a task and run the
 * orientation cascade. Orientation failing at L1 leaves the task in ERROR with the reason, exit 2.
 */
export default async function taskStart(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const taskId = checkTaskId(options.taskId);
  const network = networkOption(options);
  const { session: file } = openTaskSession(ctx, options, taskId);
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
    if (ctx.json) ctx.emitJson({ ok: false, ...sessionJson(failed, machine), error: { code: err.code, message: err.message, file: displayPath(ctx, err.path), line: err.line, column: err.column } });
    else {
      const place = [displayPath(ctx, err.path), err.line, err.column].filter((x) => x !== undefined).join(':');
      ctx.io.stderr(`${place}: ${err.message}\n`);
      ctx.io.stderr(`Task ${taskId} is in ERROR (orientation failed at level 1). Fix the file, then run \`ratchet task start --task-id ${taskId}\` again.\n`);
    }
    return EXIT_USAGE;
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

  if (ctx.json) {
    ctx.emitJson(versioned('task-transition', { ok: true, ...sessionJson(planning, machine), report: ORIENTATION_REPORT, orientation: report, next: printDirective({ ...ctx, out: () => undefined }, planning) }));
    return EXIT_OK;
  }
  ctx.out(`Task ${taskId} started (session ${planning.sessionId ?? ''}).`);
  ctx.out(`  L1 agent        ${report.level1.agent.name}${report.level1.agent.version ? ` ${report.level1.agent.version}` : ''} (${report.level1.path})`);
  ctx.out(`  L2 artifacts    ${level2.artifacts.length} in knowledge_core/${broken.length > 0 ? `; unreadable: ${broken.map((a) => `${a.path} (${a.error ?? ''})`).join(', ')}` : ''}`);
  for (const line of reviewLines(level2.review)) ctx.out(line);
  const fs = level3.filesystem;
  ctx.out(`  L3 file system  ${fs.ok ? `ok (write ${fs.writeMs} ms, read ${fs.readMs} ms, delete ${fs.deleteMs} ms)` : `FAILED: ${fs.error ?? ''}`}`);
  const net = level3.network;
  ctx.out(`  L3 network      ${net.skipped ? 'skipped (--no-network)' : net.ok ? `ok (${net.target}, ${net.ms} ms)` : `unreachable: ${net.target} ${net.error ?? ''}`}`);
  ctx.out(`  L3 environment  set: ${level3.environment.present.join(' ') || '(none)'}${level3.environment.missing.length ? `; unset: ${level3.environment.missing.join(' ')}` : ''}`);
  ctx.out(`Orientation report: ${ORIENTATION_REPORT}; logged TASK_START to logs/activity.log.jsonl.`);
  printDirective(ctx, planning);
  return EXIT_OK;
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

function networkOption(options: Record<string, unknown>): { host: string; port: number; timeoutMs: number } | false {
  if (options.network === false) return false;
  const timeoutMs = options.networkTimeout === undefined ? DEFAULT_NETWORK_TIMEOUT_MS : Number(options.networkTimeout);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) throw new CliError(`--network-timeout ${String(options.networkTimeout)}: expected milliseconds from 1 to 60000`);
  const target = options.networkTarget as string | undefined;
  if (target === undefined) return { ...DEFAULT_NETWORK_TARGET, timeoutMs };
  const m = /^(.+):(\d{1,5})$/.exec(target);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new CliError(`--network-target ${target}: expected host:port`);
  return { host: m[1]!, port, timeoutMs };
}
