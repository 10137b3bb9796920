/**
 * The JIXO area's file operations as typed operations (`ratchet jixo check|triage|lock|unlock|
 * accept|restore|clarify`; the MCP tools `jixo_check`, `jixo_triage`, `jixo_lock`, `jixo_unlock`,
 * `jixo_clarify`): what each does to the job and log files, and the document `--json` prints for it
 * with the command's exit code. The commands render the same outcomes for people. The roadmap's
 * moves are in jixo-tasks.ts, the Work Log's and the exit's in jixo-worklog.ts.
 */
import { readTextFile } from '@ratchet/store';
import {
  DEFAULT_LEASE_MS,
  acceptLogFile,
  addClarification,
  electPlanner,
  inspectLogFile,
  jixoFileKind,
  jobName,
  listTasks,
  lockLog,
  logPathFor,
  parseJob,
  readActiveRunners,
  readJobFile,
  releaseStaleLocks,
  removeClarification,
  restoreLogFile,
  triage,
  unlockLog,
  updateJobFile,
  type Clarification,
  type Diagnostic,
  type TriageDecision,
} from '@ratchet/jixo-log';
import { relative, sep } from 'node:path';
import { at, guard, int, logAt, now, userActs, userOnly } from '../commands/jixo/shared.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { recordOpened } from '../hook/opened.js';
import type { OperationResult } from './invoke.js';
import type { JixoCheckInput, JixoClarifyInput, JixoDecideInput, JixoLockInput, JixoTriageInput, JixoUnlockInput } from './jixo-input.js';


export interface CheckedJixoFile {
  /** The file as given. */
  file: string;
  kind: 'job' | 'log';
  diagnostics: Diagnostic[];
  parsed: unknown;
  /** A log's audit: whether Ratchet wrote it last, and whether it was edited since. */
  tracking?: { tracked: boolean; edited: boolean; writtenAt: string | null };
}

/**
 * `jixo check <file>`: every diagnostic of a log or job file, with its line. A log gets the audit
 * every other command runs before it acts (auditLogFile): a change made outside Ratchet since its
 * last good version (a status without its entry, an entry forged or edited) is an error here
 * exactly where triage, run and the task commands refuse it.
 */
export async function checkJixoFile(ctx: Context, input: JixoCheckInput): Promise<CheckedJixoFile> {
  const path = at(ctx, input.file);
  // `*.task.md` is JIXO v1's job file: a goal, not a log.
  if (jixoFileKind(input.file) === 'job') {
    const { value, diagnostics } = parseJob((await readTextFile(path)).text);
    return { file: input.file, kind: 'job', diagnostics, parsed: value };
  }
  const audit = await inspectLogFile(path);
  return { file: input.file, kind: 'log', diagnostics: audit.diagnostics, parsed: audit.log, tracking: { tracked: audit.tracked, edited: audit.edited, writtenAt: audit.writtenAt ?? null } };
}

/** Exit 1 when the file has errors: a check's findings. */
export function checkJixoFileResult(checked: CheckedJixoFile): OperationResult {
  const errors = checked.diagnostics.filter((d) => d.severity === 'error').length;
  const { file, kind, diagnostics, parsed, tracking } = checked;
  return { exitCode: errors > 0 ? EXIT_PROBLEMS : EXIT_OK, document: { ok: errors === 0, file, kind, diagnostics, parsed, ...(tracking !== undefined ? { tracking } : {}) } };
}

export interface TriagedJob {
  /** The log (absolute). */
  logPath: string;
  runner: string;
  decision: TriageDecision;
}

/** `jixo triage <job> --runner ID`: Protocol 0, stale locks released under the lock. */
export async function triageJob(ctx: Context, input: JixoTriageInput): Promise<TriagedJob> {
  const jobPath = at(ctx, input.job);
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const logPath = input.log !== undefined ? at(ctx, input.log) : logPathFor(jobPath, job);
  const { runner } = input;
  const listed = (input.active ?? []).map((s) => s.trim()).filter(Boolean);
  // A live `jixo run` publishes who runs now: runners it started after this agent's snapshot
  // (--active) are active too, and their Locked tasks are not stale.
  const active = [...new Set([...listed, ...(await readActiveRunners(logPath))])].filter((r) => r !== runner);
  if (input.dryRun === true) {
    const { log } = await guard(logPath, async () => (await logAt(ctx, logPath)).read());
    return { logPath, runner, decision: triage({ log, job, runner, active }) };
  }
  const store = await logAt(ctx, logPath);
  const leaseMs = input.leaseMs ?? DEFAULT_LEASE_MS;
  const { result } = await guard(logPath, () =>
    store.update(
      (log) => {
        // One time for the decision and the release: a lease cannot expire between the two.
        const time = now();
        const d = triage({ log, job, runner, active, now: Date.parse(time) });
        let next = d.staleLocks.length > 0 ? releaseStaleLocks(log, [...active, runner], { now: time, caller: runner, job: jobName(jobPath, job) }).log : log;
        // The runner told to plan is recorded as the elected Planner: the only one whose Planner moves pass.
        if (d.kind === 'role' && d.role === 'Planner') next = electPlanner(next, runner, { now: time, leaseMs });
        return { log: next, result: d };
      },
      // No active list for the log lock: a runner missing from it (the default --active is empty)
      // may be working right now. A holder that died is recovered by its lease or its owner pid.
      { runner, userActs: userActs(ctx) },
    ),
  );
  return { logPath, runner, decision: result! };
}

export function triageJobResult(triaged: TriagedJob): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, log: triaged.logPath, ...triaged.decision } };
}

export interface LockedLog {
  file: string;
  runner: string;
  /** The shared backend the lock is in; undefined on the file backend. */
  store?: string | undefined;
  holder: Record<string, unknown>;
  /** The log's fresh text. */
  content: string;
}

/**
 * `jixo lock <log> --runner ID`: a detached lock that holds between two calls. Once it is held the
 * agent owes its release, and the Stop hook must see that however the lock was taken (the CLI, an
 * MCP tool, a script): it is recorded in `.ratchet/hooks/opened.json` here, by the operation.
 */
export async function lockJixoLog(ctx: Context, input: JixoLockInput): Promise<LockedLog> {
  const { log: file, runner } = input;
  const path = at(ctx, file);
  const store = await logAt(ctx, path);
  const owner = ctx.io.env.RATCHET_JIXO_OWNER_PID;
  const leaseMs = input.leaseMs ?? DEFAULT_LEASE_MS;
  const timeoutMs = int('timeout', input.timeoutMs ?? 10_000);
  const opened = (): Promise<void> => recordOpened(ctx.cwd, ctx.io.env, { kind: 'jixo-lock', key: relative(ctx.cwd, path).split(sep).join('/'), runner });
  if (store.where !== path) {
    const held = await guard(path, () => store.lock({ runner, timeoutMs, leaseMs }));
    await opened();
    return { file, runner, store: store.where, holder: { runner, leaseUntil: held.leaseUntil ?? null, store: store.where }, content: held.content };
  }
  const result = await guard(path, () =>
    lockLog(path, {
      runner,
      timeoutMs,
      leaseMs,
      ...(input.staleAfterMs !== undefined ? { staleAfterMs: int('stale-after', input.staleAfterMs) } : {}),
      ...(owner !== undefined && /^\d+$/.test(owner) ? { ownerPid: Number(owner) } : {}),
    }),
  );
  await opened();
  // `expires` is the store's name for a detached lock's lease: said the same way on both backends.
  return { file, runner, holder: { ...result.holder, leaseUntil: typeof result.holder.expires === 'string' ? result.holder.expires : null }, content: result.content };
}

export function lockJixoLogResult(locked: LockedLog): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, file: locked.file, holder: locked.holder, content: locked.content } };
}

export interface UnlockedLog {
  file: string;
  runner: string;
  /** The holder released: pid, host and time on the file backend; the runner on a shared one. */
  released: Record<string, unknown>;
}

/** `jixo unlock <log> --runner ID`: judges what the holder wrote by hand meanwhile, then releases. */
export async function unlockJixoLog(ctx: Context, input: JixoUnlockInput): Promise<UnlockedLog> {
  const { log: file, runner } = input;
  const path = at(ctx, file);
  const store = await logAt(ctx, path);
  const released: Record<string, unknown> = store.where === path ? { ...(await guard(path, () => unlockLog(path, runner, { userActs: userActs(ctx) }))) } : (await guard(path, () => store.unlock(runner)), { runner });
  return { file, runner, released };
}

export function unlockJixoLogResult(unlocked: UnlockedLog): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, file: unlocked.file, released: unlocked.released } };
}

export type DecidedLog = { file: string; decision: 'accept'; progress: number } | { file: string; decision: 'restore'; rejected: string | undefined };

/** `jixo accept|restore <log>`: for a person, from their own terminal. */
export async function decideJixoLog(ctx: Context, input: JixoDecideInput): Promise<DecidedLog> {
  const { log: file, decision } = input;
  userOnly(ctx, `ratchet jixo ${decision}`);
  const path = at(ctx, file);
  const store = await logAt(ctx, path);
  if (store.where !== path) throw new CliError(`ratchet jixo ${decision} works on log files: on a shared backend (${store.where}) the log is only written through Ratchet`, { file });
  if (decision === 'accept') {
    const log = await guard(path, () => acceptLogFile(path));
    return { file, decision, progress: log.frontMatter.progress };
  }
  const { rejectedPath } = await guard(path, () => restoreLogFile(path));
  return { file, decision, rejected: rejectedPath };
}

export function decideJixoLogResult(decided: DecidedLog): OperationResult {
  return { exitCode: EXIT_OK, document: decided.decision === 'accept' ? { ok: true, file: decided.file, action: 'accept', progress: decided.progress } : { ok: true, file: decided.file, action: 'restore', rejected: decided.rejected ?? null } };
}

export interface ClarifiedJob {
  file: string;
  input: JixoClarifyInput;
  clarifications: Clarification[];
}

/** `jixo clarify add|list|remove <job>`: the job file's clarification requests (Protocols 4 and 5). */
export async function clarifyJob(ctx: Context, input: JixoClarifyInput): Promise<ClarifiedJob> {
  const path = at(ctx, input.job);
  if (input.verb === 'list') {
    const { job } = await guard(path, () => readJobFile(path));
    return { file: input.job, input, clarifications: job.clarifications };
  }
  if (input.verb === 'add') await defaultPlanCommitted(ctx, path);
  const job = await guard(path, () => updateJobFile(path, (j) => (input.verb === 'add' ? addClarification(j, { id: input.id, question: input.question }) : removeClarification(j, input.id))));
  return { file: input.job, input, clarifications: job.clarifications };
}

export function clarifyJobResult(clarified: ClarifiedJob): OperationResult {
  const { file, clarifications } = clarified;
  return { exitCode: EXIT_OK, document: clarified.input.verb === 'list' ? { ok: true, file, clarifications } : { ok: true, file, action: clarified.input.verb, clarifications } };
}

/**
 * Protocol 5: a runner asks only after committing a best-effort default plan, so the next runners
 * make progress while nobody answers (and the request's text says a default plan was followed). A
 * request on a log with no task left to run would be a false statement and a stalled job.
 */
async function defaultPlanCommitted(ctx: Context, jobPath: string): Promise<void> {
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const logPath = logPathFor(jobPath, job);
  const store = await logAt(ctx, logPath);
  const read = await guard(logPath, () => store.read()).catch((err: unknown) => {
    // No log yet: no plan either.
    if ((err as { code?: unknown }).code === 'not-found') return undefined;
    throw err;
  });
  if (read !== undefined && listTasks(read.log).some((t) => t.status !== 'Cancelled')) return;
  throw new CliError(`commit a default plan before asking (Protocol 5): the roadmap of ${logPath} has no task, and the request tells the user a default plan is being followed. Add best-effort tasks (ratchet jixo task add), then ask`, { code: 'no-default-plan', file: jobPath, exitCode: EXIT_PROBLEMS });
}
