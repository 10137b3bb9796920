/**
 * Inter-process lock on a file, as a sibling `<target>.lock` holding JSON metadata about its holder.
 *
 * - Taking the lock: write the complete metadata to a unique temp file (fsync), then `link` it to the
 *   lock path. `link` fails with EEXIST when the lock exists, so the lock appears atomically and is
 *   never seen half-written.
 * - A holder is stale when it is a dead (or reused) pid on this host, a detached lock past its
 *   `expires`, or - only if the caller sets `staleAfterMs` - a holder on another host older than that.
 *   A live holder is waited for, polling with jittered backoff, until `timeoutMs`.
 * - Breaking a stale lock with token T happens under the guard file `<target>.lock.break-T`, created
 *   exclusively: inside it the lock is re-read and removed only if it still holds T. Tokens are random
 *   and never reused, so a guard only ever concerns one lock generation, and a guard left by a killed
 *   breaker is itself broken the same way (guard `break-<its token>`). Releasing a detached lock (or
 *   releasing by token) goes through the same guard, so a release and an expiry takeover of one token
 *   never interleave; a process-bound lock cannot be taken over while its holder is alive to release it.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomHex } from './atomic-write.js';
import { IoError, LockLostError, LockNotHeldError, LockTimeoutError, type LockHolder, type StoreError } from './errors.js';
import { KeyedMutex } from './keyed-mutex.js';
import { TOKEN, createExclusive, createExclusiveNow, readHolder, readHolderQuietly, removeFile, removeQuietly, replaceFile } from './lock-file.js';
import { isProcessAlive, ownPidStart, thisHost } from './process-alive.js';

// A monotonic clock and a sleep without node:timers/promises or the `performance` global: each
// loads a set of modules (perf_hooks alone is ten) that a one-shot writer such as a hook would pay.
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type { LockHolder } from './errors.js';

export interface LockOptions {
  /** How long to wait for a live holder, in ms. 0 tries once. Default 10 000. */
  timeoutMs?: number;
  /** Presume a holder on another host dead once its lock is this old (ms). Default: never. */
  staleAfterMs?: number;
  /**
   * Make the lock outlive this process (e.g. `ratchet jixo lock` in one process, `unlock` in another):
   * it is not tied to the pid, is released by token, and is stale after `leaseMs` (Infinity: never).
   */
  leaseMs?: number;
  /** Epoch milliseconds, for the holder's `time`/`expires` and staleness decisions. Default Date.now. */
  clock?: () => number;
  /**
   * Lease of a process-bound lock (ms): the holder records `leaseUntil` and renews it every third of
   * the lease while it holds the lock (an unref'd timer), and any process on any host may break a
   * lock whose lease has expired, so a holder that died on another host (or in another PID
   * namespace) is recovered. Default 60 000; Infinity records no lease (liveness by pid only, as
   * before). Keep it above the longest time the holder's event loop can be blocked.
   */
  processLeaseMs?: number;
  /** Caller metadata stored in the lock file beside the reserved keys (e.g. `{ runner: 'r1' }`). */
  extra?: Record<string, unknown>;
  /** Create missing parent directories of the target. Default false (a missing directory is a NotFoundError). */
  createParentDirs?: boolean;
}

export interface LockHandle {
  /** The locked file (absolute). */
  readonly path: string;
  /** The lock file, `<path>.lock`. */
  readonly lockPath: string;
  readonly token: string;
  readonly holder: LockHolder;
  /** Throws LockLostError unless the lock file still holds our token. */
  verify(): Promise<void>;
  /** Remove the lock if it is still ours (LockLostError otherwise). A second call does nothing. */
  release(): Promise<void>;
}

export interface LockInfo {
  lockPath: string;
  holder: LockHolder;
  /** Whether an acquirer with the same `clock`/`staleAfterMs` would take the lock over now. */
  stale: boolean;
}

const RESERVED = new Set(['pid', 'host', 'time', 'token', 'pidStart', 'detached', 'expires', 'leaseUntil']);
export const DEFAULT_PROCESS_LEASE_MS = 60_000;
// A process-bound lock with more lease left than this is released without the break guard: nobody
// can judge it expired in the microseconds the release takes.
const RELEASE_MARGIN_MS = 5_000;
const FIRST_DELAY_MS = 1;
const MAX_DELAY_MS = 50;
// How long a release waits for someone else's break of the same token to finish.
const RELEASE_WAIT_MS = 10_000;

const local = new KeyedMutex();
const localReleases = new Map<string, () => void>();

interface Settings {
  timeoutMs: number;
  staleAfterMs: number | undefined;
  leaseMs: number | undefined;
  processLeaseMs: number;
  clock: () => number;
  extra: Record<string, unknown>;
  createParentDirs: boolean;
}

export function lockPathFor(path: string): string {
  return `${resolve(path)}.lock`;
}

export async function acquireLock(path: string, options: LockOptions = {}): Promise<LockHandle> {
  const settings = normalize(options);
  const target = resolve(path);
  const lockPath = `${target}.lock`;
  const started = monotonicMs();
  const releaseLocal = await local.acquire(lockPath, settings.timeoutMs);
  if (releaseLocal === undefined) {
    throw new LockTimeoutError(target, lockPath, settings.timeoutMs, readHolderQuietly(target, lockPath));
  }
  try {
    if (settings.createParentDirs) {
      try {
        mkdirSync(dirname(target), { recursive: true });
      } catch (err) {
        throw new IoError(target, `cannot create ${dirname(target)}`, err);
      }
    }
    let delay = FIRST_DELAY_MS;
    let quickRetries = 0;
    for (let attempt = 0; ; attempt++) {
      // Look before leaping after the first try: reading the lock is far cheaper than writing and
      // fsyncing a candidate that link() would refuse.
      let current = attempt === 0 ? undefined : readHolder(target, lockPath);
      if (current === undefined) {
        const holder = newHolder(settings);
        if (await createExclusive(target, lockPath, `${JSON.stringify(holder, null, 2)}\n`, true)) {
          if (holder.detached === true) {
            // A detached lock belongs to no process, so it holds no place in this process's queue:
            // it is released by token (maybe elsewhere) or expires, and others here see it on disk.
            releaseLocal();
            return handleFor(target, lockPath, holder, () => undefined, settings);
          }
          localReleases.set(holder.token, releaseLocal);
          return handleFor(target, lockPath, holder, releaseLocal, settings);
        }
        current = readHolder(target, lockPath);
        // Released between our attempt and our read: try again at once (bounded, so a
        // pathological flapping lock still reaches the timeout check).
        if (current === undefined && quickRetries++ < 100) continue;
      }
      // A stale holder just removed: try again at once, too.
      if (current !== undefined && isStale(current, settings) && breakFile(target, lockPath, lockPath, current.token, 0, settings) && quickRetries++ < 100) continue;
      const remaining = settings.timeoutMs - (monotonicMs() - started);
      if (remaining <= 0) throw new LockTimeoutError(target, lockPath, settings.timeoutMs, current);
      quickRetries = 0;
      // Jitter keeps several waiters from polling in lockstep.
      await sleep(Math.min(remaining, delay / 2 + Math.random() * (delay / 2)));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  } catch (err) {
    releaseLocal();
    throw err;
  }
}

/** Run `fn` holding the lock; the lock is released afterwards even if `fn` throws. */
export async function withLock<T>(path: string, fn: (lock: LockHandle) => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const lock = await acquireLock(path, options);
  let result: T;
  try {
    result = await fn(lock);
  } catch (err) {
    // The caller's error is the one to report; a failed release is secondary.
    await lock.release().catch(() => undefined);
    throw err;
  }
  await lock.release();
  return result;
}

/** The current holder of `path`'s lock and whether it is stale, or undefined when unlocked. */
export function inspectLock(path: string, options: Pick<LockOptions, 'clock' | 'staleAfterMs'> = {}): Promise<LockInfo | undefined> {
  try {
    const settings = normalize(options);
    const target = resolve(path);
    const lockPath = `${target}.lock`;
    const holder = readHolder(target, lockPath);
    return Promise.resolve(holder === undefined ? undefined : { lockPath, holder, stale: isStale(holder, settings) });
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * Release a lock from any process that knows its token (for detached locks: `ratchet jixo unlock`).
 * LockNotHeldError when the file is not locked or is locked under another token.
 */
export async function releaseLockByToken(path: string, token: string): Promise<void> {
  const target = resolve(path);
  const lockPath = `${target}.lock`;
  if (!TOKEN.test(token)) throw new LockNotHeldError(target, lockPath, readHolderQuietly(target, lockPath));
  await releaseToken(target, lockPath, token, (current) => new LockNotHeldError(target, lockPath, current));
  const releaseLocal = localReleases.get(token);
  localReleases.delete(token);
  releaseLocal?.();
}

/**
 * @internal For the store's own writers, holding `lock`: delete temp files that killed writers left
 * beside the target, and break guard files of killed breakers. Only temp files of this target are
 * touched; deleting another process's lock temp file merely makes its `link` retry. `keep` names a
 * temp file to leave in place: the one a digest record says a crashed write was about to rename.
 */
export function removeLeftovers(lock: LockHandle, options: Pick<LockOptions, 'clock' | 'staleAfterMs'> & { keep?: string } = {}): Promise<void> {
  const settings = normalize(options);
  const dir = dirname(lock.path);
  const base = escapeRegExp(basename(lock.path));
  const temp = new RegExp(`^\\.${base}(?:\\.lock(?:\\.break-[A-Za-z0-9_-]+)?|\\.digest|\\.prev)?\\.\\d+\\.[0-9a-f]{12}\\.tmp$`, 'u');
  const guard = new RegExp(`^${base}\\.lock\\.break-([A-Za-z0-9_-]+)$`, 'u');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return Promise.resolve();
  }
  for (const name of names) {
    if (temp.test(name)) {
      if (name !== options.keep) removeQuietly(join(dir, name));
      continue;
    }
    const match = guard.exec(name);
    if (match === null || match[1] === lock.token) continue;
    const file = join(dir, name);
    const holder = readHolderQuietly(lock.path, file);
    if (holder !== undefined && isStale(holder, settings)) breakFile(lock.path, lock.lockPath, file, holder.token, 0, settings);
  }
  return Promise.resolve();
}

function handleFor(target: string, lockPath: string, holder: LockHolder, releaseLocal: () => void, settings: Settings): LockHandle {
  let released = false;
  const stopRenewing = holder.leaseUntil === undefined ? () => undefined : renewWhileHeld(target, lockPath, holder.token, settings);
  return {
    path: target,
    lockPath,
    token: holder.token,
    holder,
    verify() {
      const current = readHolderQuietly(target, lockPath);
      return current?.token === holder.token ? Promise.resolve() : Promise.reject(new LockLostError(target, lockPath, current));
    },
    async release() {
      if (released) return;
      released = true;
      stopRenewing();
      try {
        const current = readHolderQuietly(target, lockPath);
        const leaseLeft = current?.leaseUntil === undefined ? Infinity : Date.parse(current.leaseUntil) - settings.clock();
        if (holder.detached === true || leaseLeft < RELEASE_MARGIN_MS) {
          await releaseToken(target, lockPath, holder.token, (current) => new LockLostError(target, lockPath, current));
        } else {
          // A process-bound lock is only broken once its holder (us) is dead or its lease has
          // expired, and ours has seconds left, so nobody can be breaking it now: read, compare,
          // unlink is enough. A detached lock, or a lease about to expire, goes through the break guard.
          if (current?.token !== holder.token) throw new LockLostError(target, lockPath, current);
          removeFile(target, lockPath);
        }
      } finally {
        localReleases.delete(holder.token);
        releaseLocal();
      }
    },
  };
}

/**
 * Renew a process-bound lock's lease every third of it until stopped. A renewal that finds the lock
 * gone or taken over stops quietly: the holder learns it from `verify()` (before its rename) or
 * `release()`, which throw LockLostError. The timer is unref'd, so it never keeps a process alive.
 */
function renewWhileHeld(target: string, lockPath: string, token: string, settings: Settings): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const every = Math.max(1, Math.floor(settings.processLeaseMs / 3));
  const schedule = (): void => {
    timer = setTimeout(() => {
      void renewLockLease(target, token, new Date(settings.clock() + settings.processLeaseMs).toISOString(), (current) => new LockLostError(target, lockPath, current)).then(
        () => {
          if (!stopped) schedule();
        },
        () => undefined,
      );
    }, every);
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Remove the lock if it holds `token`, under the token's guard so no takeover interleaves. */
async function releaseToken(target: string, lockPath: string, token: string, mismatch: (current: LockHolder | undefined) => StoreError): Promise<void> {
  await underTokenGuard(target, lockPath, token, mismatch, () => removeFile(target, lockPath));
}

/**
 * Move the lease of the lock held with `token` to `until` (ISO): the detached lock's `expires`, or a
 * process-bound lock's `leaseUntil`. Under the token's break guard, so no expiry takeover of the same
 * token interleaves; the lock file is replaced by rename, so readers see the old or the new holder.
 * Throws `mismatch(current)` when the token no longer holds the lock.
 */
export async function renewLockLease(path: string, token: string, until: string, mismatch: (current: LockHolder | undefined) => StoreError): Promise<LockHolder> {
  const target = resolve(path);
  const lockPath = `${target}.lock`;
  if (!TOKEN.test(token)) throw mismatch(readHolderQuietly(target, lockPath));
  return underTokenGuard(target, lockPath, token, mismatch, (current) => {
    const next: LockHolder = current.detached === true ? { ...current, expires: until } : { ...current, leaseUntil: until };
    replaceFile(target, lockPath, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  });
}

/** Run `fn` on the current holder while holding `token`'s break guard, if the lock still holds `token`. */
async function underTokenGuard<R>(target: string, lockPath: string, token: string, mismatch: (current: LockHolder | undefined) => StoreError, fn: (current: LockHolder) => R): Promise<R> {
  const guard = `${lockPath}.break-${token}`;
  const settings = normalize({});
  const started = monotonicMs();
  for (;;) {
    if (createGuard(target, guard, settings)) {
      try {
        const current = readHolder(target, lockPath);
        if (current?.token !== token) throw mismatch(current);
        return fn(current);
      } finally {
        removeQuietly(guard);
      }
    }
    // Someone believes this token is stale and is breaking it; let them finish (or break their guard).
    const breaker = readHolderQuietly(target, guard);
    if (breaker !== undefined && isStale(breaker, settings)) {
      breakFile(target, lockPath, guard, breaker.token, 1, settings);
    } else if (monotonicMs() - started > RELEASE_WAIT_MS) {
      throw mismatch(readHolderQuietly(target, lockPath));
    } else {
      await sleep(2);
    }
  }
}

/**
 * Remove `file` if it still holds `staleToken`, under the exclusive guard `break-<staleToken>`.
 * True when something changed (removed, or already replaced/gone): the caller should retry at once.
 * False when another live process holds the guard: the caller should wait.
 */
function breakFile(target: string, lockPath: string, file: string, staleToken: string, depth: number, settings: Settings): boolean {
  const guard = `${lockPath}.break-${staleToken}`;
  if (createGuard(target, guard, settings)) {
    try {
      const current = readHolder(target, file);
      if (current?.token === staleToken) removeFile(target, file);
      return true;
    } finally {
      removeQuietly(guard);
    }
  }
  const breaker = readHolderQuietly(target, guard);
  if (breaker === undefined) return true;
  // A breaker killed inside its guard: break the guard the same way (bounded depth).
  if (depth < 4 && isStale(breaker, settings)) return breakFile(target, lockPath, guard, breaker.token, depth + 1, settings);
  return false;
}

/** Guards live for microseconds and mean nothing after a crash, so they skip the fsync. */
function createGuard(target: string, guard: string, settings: Settings): boolean {
  return createExclusiveNow(target, guard, JSON.stringify(newHolder(settings, true)));
}

function isStale(holder: LockHolder, settings: Settings): boolean {
  const now = settings.clock();
  // An expired lease is stale whatever the host: its holder stopped renewing it.
  if (holder.leaseUntil !== undefined && now >= Date.parse(holder.leaseUntil)) return true;
  if (holder.detached === true) return holder.expires !== undefined && now >= Date.parse(holder.expires);
  if (holder.host === thisHost()) return !isProcessAlive(holder.pid, holder.pidStart);
  return settings.staleAfterMs !== undefined && now - Date.parse(holder.time) >= settings.staleAfterMs;
}

/** Metadata for a new lock (or, with `guard`, for a break guard, which is never detached). */
function newHolder(settings: Settings, guard = false): LockHolder {
  const now = settings.clock();
  const holder: LockHolder = { pid: process.pid, host: thisHost(), time: new Date(now).toISOString(), token: randomHex(16) };
  const pidStart = ownPidStart();
  if (pidStart !== undefined) holder.pidStart = pidStart;
  if (settings.leaseMs !== undefined && !guard) {
    holder.detached = true;
    if (Number.isFinite(settings.leaseMs)) holder.expires = new Date(now + settings.leaseMs).toISOString();
  } else if (Number.isFinite(settings.processLeaseMs)) {
    // Guards get one too (never renewed: they live for microseconds), so a breaker killed on another
    // host does not block its token forever.
    holder.leaseUntil = new Date(now + settings.processLeaseMs).toISOString();
  }
  return { ...holder, ...settings.extra };
}

function normalize(options: LockOptions): Settings {
  const { timeoutMs = 10_000, staleAfterMs, leaseMs, processLeaseMs = DEFAULT_PROCESS_LEASE_MS, clock = Date.now, extra = {}, createParentDirs = false } = options;
  if (typeof processLeaseMs !== 'number' || Number.isNaN(processLeaseMs) || processLeaseMs <= 0) throw new RangeError(`processLeaseMs must be a number > 0, got ${String(processLeaseMs)}`);
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0) throw new RangeError(`timeoutMs must be a number >= 0, got ${String(timeoutMs)}`);
  if (staleAfterMs !== undefined && (typeof staleAfterMs !== 'number' || Number.isNaN(staleAfterMs) || staleAfterMs < 0)) {
    throw new RangeError(`staleAfterMs must be a number >= 0, got ${String(staleAfterMs)}`);
  }
  if (leaseMs !== undefined && (typeof leaseMs !== 'number' || Number.isNaN(leaseMs) || leaseMs <= 0)) throw new RangeError(`leaseMs must be a number > 0, got ${String(leaseMs)}`);
  if (typeof clock !== 'function') throw new TypeError('clock must be a function returning epoch milliseconds');
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new TypeError('extra must be a plain object');
  for (const key of Object.keys(extra)) {
    if (RESERVED.has(key)) throw new TypeError(`extra must not use the reserved lock key "${key}"`);
  }
  return { timeoutMs, staleAfterMs, leaseMs, processLeaseMs, clock, extra, createParentDirs };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
