/**
 * The I/O shell: every log/job write goes through @ratchet/store (inter-process lock, re-read inside
 * the lock, strict parse, atomic write). A file that does not parse is never rewritten.
 *
 * Two kinds of lock holder share one lock file (`<log>.lock`):
 * - process-bound (a commit: lock, read, modify, write, unlock, all in one process); a dead pid on
 *   this host is taken over by the store at once;
 * - detached (`ratchet jixo lock` / `unlock`, two processes of one runner): the holder names its
 *   `runner` and, when known, `ownerPid` (the process that outlives both commands, e.g. the outer
 *   loop). It is stale when its lease expires, when `ownerPid` is dead on this host, or when the
 *   caller's active-runner list does not contain its runner. Holders on other hosts are never
 *   presumed dead before `staleAfterMs`.
 */
import { hostname } from 'node:os';
import { existsSync, linkSync, writeFileSync } from 'node:fs';
import {
  acquireLock,
  checkDigest,
  inspectLock,
  matchesDigest,
  previousPathFor,
  readDigestRecord,
  readTextFile,
  readTextFileSync,
  releaseLockByToken,
  removeLeftovers,
  renewLockLease,
  restorePrevious,
  writeFileAtomic,
  writeTracked,
  LockNotHeldError,
  LockTimeoutError,
  StoreError,
  type DigestRecord,
  type LockHandle,
  type LockHolder,
} from '@ratchet/store';
import { auditLog } from './audit.js';
import { JixoError, JixoParseError } from './errors.js';
import { parseJobStrict, serializeJob } from './job.js';
import { parseLog, serializeLog } from './log.js';
import type { Diagnostic, JobFile, LogFile } from './types.js';

export interface LockSettings {
  /** How long to wait for a live holder (ms). Default 10 000. */
  timeoutMs?: number;
  /** Presume a holder on another host dead after this many ms. Default: never. */
  staleAfterMs?: number;
  /** Detached holders whose runner is not in this list are stale (the outer loop knows who runs). */
  active?: readonly string[];
  clock?: () => number;
}

export interface UpdateOptions extends LockSettings {
  /** The runner making the change: if it holds the detached lock (`jixo lock`), the write proceeds under it. */
  runner?: string;
  /**
   * A person makes the change (not an agent): Planner moves in an edit the caller made under its own
   * lock are theirs to make. The CLI sets it unless RATCHET_ACTOR=agent.
   */
  userActs?: boolean;
}

const SLICE_MS = 100;

/** @internal Whether a pid on this host is alive (EPERM: alive, not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why a detached holder is stale, or undefined when it is not (store rules cover the rest). */
export function detachedStaleness(holder: LockHolder, settings: Pick<LockSettings, 'active'> = {}): string | undefined {
  if (holder.detached !== true) return undefined;
  const owner = holder.ownerPid;
  if (typeof owner === 'number' && holder.host === hostname() && !isAlive(owner)) return `its owner process ${owner} is dead`;
  const runner = holder.runner;
  if (settings.active !== undefined && typeof runner === 'string' && !settings.active.includes(runner)) return `its runner ${runner} is not active`;
  return undefined;
}

/** A lock taken, and the runner whose abandoned detached lock it replaced (its edit is settled under ours). */
interface Taken {
  lock: LockHandle;
  abandonedBy: string | undefined;
}

/**
 * Take the log's lock, waiting for live holders, taking over stale ones (dead pids through the
 * store; dead owners, expired leases and inactive runners of detached locks here, so that what the
 * runner left unsettled is judged as its edit: see `settleEdit`).
 */
async function takeLock(path: string, settings: LockSettings & { leaseMs?: number; extra?: Record<string, unknown> }): Promise<Taken> {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const started = performance.now();
  let abandonedBy: string | undefined;
  for (;;) {
    const remaining = timeoutMs - (performance.now() - started);
    const seen = await inspectLock(path);
    if (seen !== undefined && seen.holder.detached === true && (seen.stale || detachedStaleness(seen.holder, settings) !== undefined)) {
      await releaseLockByToken(path, seen.holder.token).catch(() => undefined);
      if (typeof seen.holder.runner === 'string') abandonedBy = seen.holder.runner;
      continue;
    }
    try {
      const lock = await acquireLock(path, {
        timeoutMs: Math.max(0, Math.min(SLICE_MS, remaining)),
        ...(settings.staleAfterMs !== undefined ? { staleAfterMs: settings.staleAfterMs } : {}),
        ...(settings.leaseMs !== undefined ? { leaseMs: settings.leaseMs } : {}),
        ...(settings.clock !== undefined ? { clock: settings.clock } : {}),
        ...(settings.extra !== undefined ? { extra: settings.extra } : {}),
      });
      // As for every other state file: the new holder clears temp files a killed writer left behind.
      await removeLeftovers(lock);
      return { lock, abandonedBy };
    } catch (err) {
      if (!(err instanceof LockTimeoutError)) throw err;
      const info = await inspectLock(path);
      if (info && detachedStaleness(info.holder, settings) !== undefined) {
        await releaseLockByToken(path, info.holder.token).catch(() => undefined);
        if (typeof info.holder.runner === 'string') abandonedBy = info.holder.runner;
        continue;
      }
      // The whole wait, not the last slice of it (which read "timed out after 25.28 ms" after 10 s).
      if (performance.now() - started >= timeoutMs) throw new LockTimeoutError(err.path, err.lockPath, timeoutMs, err.holder);
    }
  }
}

/** Who made the text's changes since the last good version, as the audit is told. */
export interface EditContext {
  /** The runner holding the log lock when the change was made (undefined: outside any lock). */
  holder?: string | undefined;
  /** A person made it: Planner moves are theirs. */
  userActs?: boolean | undefined;
  now?: number;
}

/** What the audit (audit.ts) finds in a log file's text, with what its tracking knows. */
export interface LogAudit {
  /** Parse diagnostics, then the audit's (only on a text that parses). Errors mean: refuse it. */
  diagnostics: Diagnostic[];
  log: LogFile;
  /** Ratchet has written the file (it has a digest record): it is audited from its last good version. */
  tracked: boolean;
  /** The text is not what Ratchet last wrote (or a person accepted). */
  edited: boolean;
  /** When Ratchet last wrote it. */
  writtenAt: string | undefined;
  /** The last good version (`<log>.prev`), when the text differs from it. */
  baselineText: string | undefined;
}

/**
 * The one audit every command runs on a log file: its parse diagnostics and, when the text is not
 * what Ratchet last wrote, what the change did (auditLog against the last good version). A log
 * Ratchet never wrote is taken as first seen. The kept copy must be one the digest record names:
 * otherwise it proves nothing, and the edit is reported for a person to decide.
 */
export function auditLogFile(path: string, text: string, context: EditContext = {}): LogAudit {
  const parsed = parseLog(text);
  const result: LogAudit = { diagnostics: [...parsed.diagnostics], log: parsed.value, tracked: false, edited: false, writtenAt: undefined, baselineText: undefined };
  let record: DigestRecord | undefined;
  try {
    record = readDigestRecord(path);
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    result.tracked = result.edited = true;
    result.diagnostics.push(tampered(`${err.reason}; a person decides: ratchet jixo accept ${path} keeps the text as it is, ratchet jixo restore ${path} puts back the last good version`));
    return result;
  }
  // The kept copy is read only when it is needed: on every command the digest matches.
  if (record === undefined && !existsSync(previousPathFor(path))) return result;
  result.tracked = true;
  result.writtenAt = record?.writtenAt;
  // The common case first, from the record already read; checkDigest knows the rest (a write
  // interrupted before its rename, a racing writer).
  if (record !== undefined && matchesDigest(text, record.current)) return result;
  try {
    checkDigest(path, text, () => textOrUndefined(path));
    return result;
  } catch (err) {
    if (!(err instanceof StoreError) || err.code !== 'tampered') throw err;
  }
  result.edited = true;
  const prevText = textOrUndefined(previousPathFor(path));
  const kept = prevText !== undefined && record !== undefined && [record.current, record.previous].some((d) => d !== null && matchesDigest(prevText, d, true));
  const baseline = kept ? parseLog(prevText) : undefined;
  if (baseline === undefined || baseline.diagnostics.some((d) => d.severity === 'error')) {
    result.diagnostics.push(tampered(`changed outside Ratchet${record === undefined ? ' (its digest record was removed)' : ` since ${record.writtenAt}`}, and no last good version it can be audited against is kept (${previousPathFor(path)}): a person decides, ratchet jixo accept ${path} keeps it`));
    return result;
  }
  result.baselineText = prevText;
  if (!parsed.diagnostics.some((d) => d.severity === 'error')) result.diagnostics.push(...auditLog(parsed.value, text, { baseline: baseline.value, ...context }));
  return result;
}

function tampered(message: string): Diagnostic {
  return { rule: 'tampered', severity: 'error', message, line: 1, column: 1 };
}

/** A file's text, or undefined when there is none (a file that cannot be read otherwise throws). */
const textOrUndefined = (path: string): string | undefined => (existsSync(path) ? readTextFileSync(path).text : undefined);

/**
 * Read a log file and audit it as every command does (`auditLogFile`), without refusing: for the
 * reports of `jixo check` and `ratchet doctor`. An edit in progress under the log lock is judged as
 * its holder's.
 */
export async function inspectLogFile(path: string): Promise<LogAudit & { text: string }> {
  const { text } = await readTextFile(path);
  return { ...auditLogFile(path, text, { holder: await logLockHolder(path) }), text };
}

/** The runner holding the log's detached lock, if a live one is held: an edit in progress is its. */
export async function logLockHolder(path: string): Promise<string | undefined> {
  const info = await inspectLock(path);
  return info !== undefined && info.holder.detached === true && !info.stale && typeof info.holder.runner === 'string' ? info.holder.runner : undefined;
}

/** `auditLogFile`, throwing JixoParseError (every diagnostic, with places) when it finds an error. */
function audited(path: string, text: string, context: EditContext): LogAudit {
  const audit = auditLogFile(path, text, context);
  if (audit.diagnostics.some((d) => d.severity === 'error')) throw new JixoParseError(path, audit.diagnostics);
  return audit;
}

/**
 * Read a log: strictly parsed and audited (JixoParseError with every diagnostic when either finds an
 * error). A change made while a runner holds the log lock is judged as that runner's.
 */
export async function readLogFile(path: string): Promise<{ log: LogFile; text: string }> {
  const { text } = await readTextFile(path);
  const holder = await logLockHolder(path);
  return { log: audited(path, text, { holder }).log, text };
}

/** Write a log's new text with its digest record and the copy of the last good version (`<log>.prev`). */
async function writeLog(path: string, text: string, replacing: string | undefined, verify: () => Promise<void>): Promise<void> {
  await writeTracked(path, text, { writtenAt: new Date().toISOString(), replacing, beforeRename: verify });
}

export interface SettledEdit {
  /** The edit was refused: the last good version is back, and the refused text kept here. */
  rejectedPath?: string;
  diagnostics: Diagnostic[];
}

/**
 * Judge what the holder of the log lock wrote by hand (the seed's read-modify-write) when it gives
 * the lock up: a change the commands would have made for it becomes the last good version; any
 * other (a text that does not parse, a status without its entry, a plan change by a runner that is
 * not the Planner) is refused, the last good version written back and the refused text kept as
 * `<log>.rejected-<time>`. Call holding the lock (`verify` checks it is still held).
 */
async function settleEdit(path: string, holder: string, context: EditContext, verify: () => Promise<void>): Promise<SettledEdit> {
  const text = textOrUndefined(path);
  if (text === undefined) return { diagnostics: [] };
  const audit = auditLogFile(path, text, { ...context, holder });
  if (!audit.edited) return { diagnostics: audit.diagnostics };
  const errors = audit.diagnostics.some((d) => d.severity === 'error');
  if (!errors) {
    await writeLog(path, text, text, verify);
    return { diagnostics: audit.diagnostics };
  }
  if (audit.baselineText === undefined) return { diagnostics: audit.diagnostics };
  const rejectedPath = `${path}.rejected-${new Date().toISOString().replace(/[:.]/gu, '-')}`;
  try {
    linkSync(path, rejectedPath);
  } catch {
    writeFileSync(rejectedPath, text, { flag: 'wx' });
  }
  await writeLog(path, audit.baselineText, undefined, verify);
  return { rejectedPath, diagnostics: audit.diagnostics };
}

/** Settle what an abandoned detached lock's runner left, under the lock we took over from it. */
async function settleAbandoned(path: string, taken: Taken): Promise<void> {
  if (taken.abandonedBy !== undefined) await settleEdit(path, taken.abandonedBy, {}, () => taken.lock.verify());
}

export async function readJobFile(path: string): Promise<{ job: JobFile; text: string }> {
  const { text } = await readTextFile(path);
  return { job: parseJobStrict(text, path), text };
}

/**
 * Locked read-modify-write of a log. `fn` returns the new log (or undefined: no change). Returns
 * the log as written. When `runner` holds the detached lock, the write happens under that lock.
 */
export async function updateLogFile<R = undefined>(path: string, fn: (log: LogFile) => LogFile | { log: LogFile; result: R } | undefined, options: UpdateOptions = {}): Promise<{ log: LogFile; result: R | undefined; changed: boolean }> {
  const own = options.runner === undefined ? undefined : await inspectLock(path);
  const underRunner = own !== undefined && own.holder.detached === true && own.holder.runner === options.runner;
  const taken = underRunner ? undefined : await takeLock(path, options);
  const lock = taken?.lock;
  const verify = async (): Promise<void> => {
    if (lock) await lock.verify();
    else {
      const now = await inspectLock(path);
      if (now?.holder.token !== own?.holder.token) throw new JixoError('lock-not-held', `runner ${options.runner ?? ''} lost the lock on ${path} before writing`, { path });
    }
  };
  try {
    if (taken !== undefined) await settleAbandoned(path, taken);
    const { text } = await readTextFile(path);
    // Under its own lock, what the runner wrote by hand is its edit; otherwise nobody held the lock.
    const { log } = audited(path, text, { holder: underRunner ? options.runner : undefined, userActs: options.userActs });
    const out = fn(log);
    if (out === undefined) return { log, result: undefined, changed: false };
    const next = 'log' in out && 'result' in out ? out.log : out;
    const result = 'log' in out && 'result' in out ? out.result : undefined;
    // Nothing changed: a file in an older layout (JIXO v1) is not rewritten into the canonical one.
    if (next === log) return { log, result, changed: false };
    const written = serializeLog(next);
    if (written === text) return { log: next, result, changed: false };
    await writeLog(path, written, text, verify);
    return { log: next, result, changed: true };
  } finally {
    await lock?.release();
  }
}

/** Locked read-modify-write of a job file (clarification requests). */
export async function updateJobFile(path: string, fn: (job: JobFile) => JobFile | undefined, options: LockSettings = {}): Promise<JobFile> {
  const { lock } = await takeLock(path, options);
  try {
    const { text } = await readTextFile(path);
    const job = parseJobStrict(text, path);
    const next = fn(job);
    if (next === undefined) return job;
    const written = serializeJob(next);
    if (written !== text) await writeFileAtomic(path, written, { beforeRename: () => lock.verify() });
    return next;
  } finally {
    await lock.release();
  }
}

export interface LogLockOptions extends LockSettings {
  runner: string;
  /** The detached lock expires after this many ms (default 10 minutes; Infinity: never). */
  leaseMs?: number;
  /** A process whose death makes the lock stale (the outer loop sets RATCHET_JIXO_OWNER_PID). */
  ownerPid?: number;
}

export interface LogLockResult {
  holder: LockHolder;
  /** The log's content read inside the lock (validated: a broken log refuses the lock). */
  content: string;
  log: LogFile;
}

export const DEFAULT_LEASE_MS = 10 * 60_000;

/**
 * `jixo_log_lock()`: a detached lock held by `runner` across processes until `unlockLog` by the
 * same runner (or staleness). Re-locking by the holder itself refreshes nothing and succeeds.
 */
export async function lockLog(path: string, options: LogLockOptions): Promise<LogLockResult> {
  const info = await inspectLock(path);
  let holder: LockHolder;
  const again = info !== undefined && info.holder.detached === true && info.holder.runner === options.runner && !info.stale;
  if (again) holder = info.holder;
  else {
    const extra: Record<string, unknown> = { runner: options.runner };
    if (options.ownerPid !== undefined) extra.ownerPid = options.ownerPid;
    const taken = await takeLock(path, { ...options, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, extra });
    holder = taken.lock.holder;
    try {
      await settleAbandoned(path, taken);
    } catch (err) {
      await releaseLockByToken(path, holder.token).catch(() => undefined);
      throw err;
    }
  }
  const verify = async (): Promise<void> => {
    const now = await inspectLock(path);
    if (now?.holder.token !== holder.token) throw new JixoError('lock-not-held', `runner ${options.runner} lost the lock on ${path}`, { path });
  };
  try {
    const { text } = await readTextFile(path);
    const audit = audited(path, text, { holder: again ? options.runner : undefined });
    // From here on the holder may write the file itself: keep the version it starts from, so its
    // edit can be judged (and refused) at unlock. A log Ratchet never wrote is taken as first seen.
    if (!audit.tracked) await writeLog(path, text, text, verify);
    return { holder, content: text, log: audit.log };
  } catch (err) {
    // A log that cannot be read, parsed or audited is not worth holding: give the lock back.
    await releaseLockByToken(path, holder.token).catch(() => undefined);
    throw err;
  }
}

/** The holder's edit was refused at unlock: the last good version is back (see `settleEdit`). */
export class RejectedEditError extends JixoError {
  readonly diagnostics: Diagnostic[];
  readonly rejectedPath: string | undefined;
  constructor(path: string, diagnostics: Diagnostic[], rejectedPath: string | undefined) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super('rejected-edit', `the edit made under the log lock is refused (${errors} problem${errors === 1 ? '' : 's'})${rejectedPath === undefined ? '' : `: the last good version is back, and the refused text is kept as ${rejectedPath}`}`, { path });
    this.name = 'RejectedEditError';
    this.diagnostics = diagnostics;
    this.rejectedPath = rejectedPath;
  }
}

/**
 * `jixo_log_unlock()`: refused (lock-not-held) unless `runner` holds the lock. What the runner wrote
 * by hand meanwhile is judged first (see `settleEdit`): the lock is released either way, and a
 * refused edit throws RejectedEditError (with every problem and where the refused text is kept).
 */
export async function unlockLog(path: string, runner: string, options: { userActs?: boolean } = {}): Promise<LockHolder> {
  const info = await inspectLock(path);
  if (info === undefined) throw new JixoError('lock-not-held', `${runner} cannot unlock: the log is not locked`, { path });
  if (info.holder.runner !== runner || info.holder.detached !== true) {
    throw new JixoError('lock-not-held', `${runner} cannot unlock: the lock is held by ${typeof info.holder.runner === 'string' ? info.holder.runner : `pid ${info.holder.pid}`}`, { path });
  }
  let settled: SettledEdit;
  try {
    settled = await settleEdit(path, runner, { userActs: options.userActs }, async () => {
      const now = await inspectLock(path);
      if (now?.holder.token !== info.holder.token) throw new JixoError('lock-not-held', `runner ${runner} lost the lock on ${path}`, { path });
    });
  } finally {
    await releaseLockByToken(path, info.holder.token);
  }
  if (settled.diagnostics.some((d) => d.severity === 'error')) throw new RejectedEditError(path, settled.diagnostics, settled.rejectedPath);
  return info.holder;
}

/**
 * While an agent works (`jixo run` is long-lived): move the lease of the detached lock `runner`
 * holds to `leaseMs` from now, so a long task keeps its lock and a runner that dies anywhere (this
 * process included) loses it one lease later. False when `runner` holds no live detached lock.
 */
export async function renewRunnerLock(path: string, runner: string, leaseMs: number = DEFAULT_LEASE_MS, clock: () => number = Date.now): Promise<boolean> {
  const info = await inspectLock(path);
  if (info?.holder.detached !== true || info.holder.runner !== runner || info.stale) return false;
  try {
    await renewLockLease(path, info.holder.token, new Date(clock() + leaseMs).toISOString(), (current) => new LockNotHeldError(path, `${path}.lock`, current));
    return true;
  } catch (err) {
    // Released or taken over between the look and the renewal: nothing of ours to renew.
    if (err instanceof LockNotHeldError) return false;
    throw err;
  }
}

/**
 * After an agent exits: drop a detached lock its runner left behind, judging what it wrote by hand
 * as unlock does (a refused edit is put back; the refused text is kept). True when one was dropped.
 */
export async function releaseRunnerLock(path: string, runner: string): Promise<boolean> {
  const info = await inspectLock(path);
  if (info?.holder.detached !== true || info.holder.runner !== runner) return false;
  try {
    await settleEdit(path, runner, {}, async () => {
      const now = await inspectLock(path);
      if (now?.holder.token !== info.holder.token) throw new JixoError('lock-not-held', `runner ${runner} lost the lock on ${path}`, { path });
    });
  } finally {
    await releaseLockByToken(path, info.holder.token).catch(() => undefined);
  }
  return true;
}

/**
 * A person's "this log is good as it is": its current text (which must parse) becomes the last good
 * version, so the audit starts from it, as from a log first seen. Under the log's lock.
 */
export async function acceptLogFile(path: string, options: LockSettings = {}): Promise<LogFile> {
  const { lock } = await takeLock(path, options);
  try {
    const { text } = await readTextFile(path);
    const parsed = parseLog(text);
    if (parsed.diagnostics.some((d) => d.severity === 'error')) throw new JixoParseError(path, parsed.diagnostics);
    await writeLog(path, text, text, () => lock.verify());
    return parsed.value;
  } finally {
    await lock.release();
  }
}

/**
 * A person's "put back the last good version" (`<log>.prev`, checked against the digest record, as
 * for every tracked state file: the store's `restorePrevious`); the text it replaces is kept as
 * `<log>.rejected-<time>`.
 */
export async function restoreLogFile(path: string): Promise<{ rejectedPath: string | undefined }> {
  try {
    return { rejectedPath: (await restorePrevious(path)).rejectedPath };
  } catch (err) {
    // No record, no copy, or a copy that matches no recorded version: nothing trustworthy to put back.
    if (err instanceof StoreError && (err.code === 'not-found' || err.code === 'tampered')) throw new JixoError('bad-argument', `${err.reason}: nothing to restore; fix the log by hand and accept it (ratchet jixo accept)`, { path });
    throw err;
  }
}
