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
import { acquireLock, inspectLock, readTextFile, releaseLockByToken, removeLeftovers, renewLockLease, writeFileAtomic, LockNotHeldError, LockTimeoutError, type LockHandle, type LockHolder } from '@ratchet/store';
import { JixoError } from './errors.js';
import { parseJobStrict, serializeJob } from './job.js';
import { parseLogStrict, serializeLog } from './log.js';
import type { JobFile, LogFile } from './types.js';

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

/**
 * Take the log's lock, waiting for live holders, taking over stale ones (dead pids through the
 * store; dead owners and inactive runners of detached locks here).
 */
async function takeLock(path: string, settings: LockSettings & { leaseMs?: number; extra?: Record<string, unknown> }): Promise<LockHandle> {
  const timeoutMs = settings.timeoutMs ?? 10_000;
  const started = performance.now();
  for (;;) {
    const remaining = timeoutMs - (performance.now() - started);
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
      return lock;
    } catch (err) {
      if (!(err instanceof LockTimeoutError)) throw err;
      const info = await inspectLock(path);
      if (info && detachedStaleness(info.holder, settings) !== undefined) {
        await releaseLockByToken(path, info.holder.token).catch(() => undefined);
        continue;
      }
      // The whole wait, not the last slice of it (which read "timed out after 25.28 ms" after 10 s).
      if (performance.now() - started >= timeoutMs) throw new LockTimeoutError(err.path, err.lockPath, timeoutMs, err.holder);
    }
  }
}

/** Read and strictly parse a log (JixoParseError with every diagnostic when it has errors). */
export async function readLogFile(path: string): Promise<{ log: LogFile; text: string }> {
  const { text } = await readTextFile(path);
  return { log: parseLogStrict(text, path), text };
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
  const lock = underRunner ? undefined : await takeLock(path, options);
  try {
    const { text } = await readTextFile(path);
    const log = parseLogStrict(text, path);
    const out = fn(log);
    if (out === undefined) return { log, result: undefined, changed: false };
    const next = 'log' in out && 'result' in out ? out.log : (out);
    const result = 'log' in out && 'result' in out ? out.result : undefined;
    const written = serializeLog(next);
    if (written === text) return { log: next, result, changed: false };
    await writeFileAtomic(path, written, {
      beforeRename: async () => {
        if (lock) await lock.verify();
        else {
          const now = await inspectLock(path);
          if (now?.holder.token !== own?.holder.token) throw new JixoError('lock-not-held', `runner ${options.runner ?? ''} lost the lock on ${path} before writing`, { path });
        }
      },
    });
    return { log: next, result, changed: true };
  } finally {
    await lock?.release();
  }
}

/** Locked read-modify-write of a job file (clarification requests). */
export async function updateJobFile(path: string, fn: (job: JobFile) => JobFile | undefined, options: LockSettings = {}): Promise<JobFile> {
  const lock = await takeLock(path, options);
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
  if (info && info.holder.detached === true && info.holder.runner === options.runner && !info.stale) holder = info.holder;
  else {
    const extra: Record<string, unknown> = { runner: options.runner };
    if (options.ownerPid !== undefined) extra.ownerPid = options.ownerPid;
    const handle = await takeLock(path, { ...options, leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS, extra });
    holder = handle.holder;
  }
  try {
    const { text } = await readTextFile(path);
    return { holder, content: text, log: parseLogStrict(text, path) };
  } catch (err) {
    // A log that cannot be read or parsed is not worth holding: give the lock back.
    await releaseLockByToken(path, holder.token).catch(() => undefined);
    throw err;
  }
}

/** `jixo_log_unlock()`: refused (lock-not-held) unless `runner` holds the lock. */
export async function unlockLog(path: string, runner: string): Promise<LockHolder> {
  const info = await inspectLock(path);
  if (info === undefined) throw new JixoError('lock-not-held', `${runner} cannot unlock: the log is not locked`, { path });
  if (info.holder.runner !== runner || info.holder.detached !== true) {
    throw new JixoError('lock-not-held', `${runner} cannot unlock: the lock is held by ${typeof info.holder.runner === 'string' ? info.holder.runner : `pid ${info.holder.pid}`}`, { path });
  }
  await releaseLockByToken(path, info.holder.token);
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

/** After an agent exits: drop a detached lock its runner left behind. True when one was dropped. */
export async function releaseRunnerLock(path: string, runner: string): Promise<boolean> {
  const info = await inspectLock(path);
  if (info?.holder.detached !== true || info.holder.runner !== runner) return false;
  await releaseLockByToken(path, info.holder.token).catch(() => undefined);
  return true;
}
