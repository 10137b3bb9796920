/**
 * Where a job's log lives: the `*.log.md` file (the default, `fileLog`) or a document of a shared
 * storage backend (`storedLog`: `RATCHET_STORE=postgres://…`, so runners on several machines share
 * one log). Both give the same operations, so the outer loop and the CLI never care which:
 * strict read, locked read-modify-write (a file that does not parse is never rewritten), creation,
 * and the detached log lock of `jixo lock` / `unlock` with its lease.
 *
 * A stored log is the document `{ "format": "jixo-log", "text": "<the exact Markdown>" }` under the
 * log's project-relative path (`.jixo/docs.log.md`): the text is what the file would hold, byte for
 * byte, so `ratchet store export` and `import` round-trip it. Commits are the backend's locked
 * read-modify-write of that document (re-read inside the transaction), so concurrent commits from
 * any number of machines lose nothing. The detached lock is a port lock named after the key.
 */
import { NotFoundError, StoreError, type Lease, type StorageBackend } from '@ratchet/store';
import { JixoError } from './errors.js';
import { DEFAULT_LEASE_MS, lockLog, logLockHolder, readLogFile, releaseRunnerLock, renewRunnerLock, unlockLog, updateLogFile, type UpdateOptions } from './files.js';
import { parseLogStrict, serializeLog } from './log.js';
import { ensureLog, initialLog } from './runner.js';
import type { LogFile } from './types.js';

/** The stored form of a log: its Markdown, verbatim. */
export const STORED_LOG_FORMAT = 'jixo-log';

export type LogUpdate<R> = (log: LogFile) => LogFile | { log: LogFile; result: R } | undefined;

export interface LogLockInfo {
  runner: string;
  /** The Markdown read inside the lock. */
  content: string;
  log: LogFile;
  leaseUntil?: string | undefined;
}

export interface LogHandle {
  /** The file path, or `location#key` on a shared backend: what errors and output name. */
  readonly where: string;
  read(): Promise<{ log: LogFile; text: string }>;
  update<R = undefined>(fn: LogUpdate<R>, options?: UpdateOptions): Promise<{ log: LogFile; result: R | undefined; changed: boolean }>;
  /** Creates the log (initial content) when missing; true when it did. */
  ensure(now: string): Promise<boolean>;
  lock(options: { runner: string; timeoutMs?: number; leaseMs?: number; ownerPid?: number; staleAfterMs?: number }): Promise<LogLockInfo>;
  /** Release `runner`'s lock; on the file backend, what it wrote by hand meanwhile is judged first (RejectedEditError). */
  unlock(runner: string, options?: { userActs?: boolean }): Promise<void>;
  /** The runner holding the log lock (`jixo lock`), if a live one does. */
  holder(): Promise<string | undefined>;
  renewRunnerLock(runner: string, leaseMs: number): Promise<boolean>;
  releaseRunnerLock(runner: string): Promise<boolean>;
}

function split<R>(out: LogFile | { log: LogFile; result: R }): { log: LogFile; result: R | undefined } {
  return 'log' in out && 'result' in out ? { log: out.log, result: out.result } : { log: out, result: undefined };
}

/** The log as the `*.log.md` file at `path` (every operation of files.ts). */
export function fileLog(path: string): LogHandle {
  return {
    where: path,
    read: () => readLogFile(path),
    update: (fn, options) => updateLogFile(path, fn, options),
    ensure: (now) => ensureLog(path, now),
    async lock(options) {
      const r = await lockLog(path, options);
      return { runner: options.runner, content: r.content, log: r.log, leaseUntil: r.holder.leaseUntil };
    },
    async unlock(runner, options) {
      await unlockLog(path, runner, options);
    },
    holder: () => logLockHolder(path),
    renewRunnerLock: (runner, leaseMs) => renewRunnerLock(path, runner, leaseMs),
    releaseRunnerLock: (runner) => releaseRunnerLock(path, runner),
  };
}

const SLICE_MS = 100;

/**
 * The log as a document of `backend` under `key` (the log's project-relative path). Commits wait
 * (up to `timeoutMs`) while another runner holds the detached lock; the lock's runner commits
 * under it.
 */
export function storedLog(backend: StorageBackend, key: string): LogHandle {
  const where = `${backend.location}#${key}`;
  const lockName = `${key}.lock`;
  const textOf = (value: Record<string, unknown> | undefined): string => {
    if (value === undefined) throw new NotFoundError(where, 'no such log in the store');
    if (value.format !== STORED_LOG_FORMAT || typeof value.text !== 'string') throw new StoreError('validation-error', where, `not a stored JIXO log (expected {"format": "${STORED_LOG_FORMAT}", "text": "..."})`);
    return value.text;
  };
  /** Waits while a detached lock of another runner is held (live); the runner itself passes. */
  const waitForLock = async (runner: string | undefined, timeoutMs: number): Promise<void> => {
    const started = performance.now();
    for (;;) {
      const holder = await backend.locks.holder(lockName);
      if (holder === undefined || holder.owner === runner) return;
      if (performance.now() - started >= timeoutMs) throw new StoreError('lock-timeout', where, `the log is locked by ${holder.owner} until ${holder.leaseUntil} (waited ${timeoutMs} ms)`);
      await new Promise((r) => setTimeout(r, SLICE_MS));
    }
  };
  const handle: LogHandle = {
    where,
    async read() {
      const text = textOf((await backend.documents.get(key))?.value);
      return { log: parseLogStrict(text, where), text };
    },
    async update(fn, options = {}) {
      await waitForLock(options.runner, options.timeoutMs ?? 10_000);
      let outcome: { log: LogFile; result: never; changed: boolean } | undefined;
      await backend.documents.update(key, (current) => {
        // Read inside the backend's lock or transaction: what fn sees is the latest commit.
        const text = textOf(current?.value);
        const log = parseLogStrict(text, where);
        const out = fn(log);
        if (out === undefined) {
          outcome = { log, result: undefined as never, changed: false };
          return undefined;
        }
        const { log: next, result } = split(out);
        if (next === log) {
          // Nothing changed: an older layout stays as it is.
          outcome = { log, result: result as never, changed: false };
          return undefined;
        }
        const written = serializeLog(next);
        outcome = { log: next, result: result as never, changed: written !== text };
        return written === text ? undefined : { format: STORED_LOG_FORMAT, text: written };
      });
      return outcome!;
    },
    async ensure(now) {
      let created = false;
      await backend.documents.update(key, (current) => {
        created = current === undefined;
        return current === undefined ? { format: STORED_LOG_FORMAT, text: serializeLog(initialLog(now)) } : undefined;
      });
      return created;
    },
    async lock(options) {
      const held = await backend.locks.holder(lockName);
      let lease: Lease | undefined = held?.owner === options.runner ? held : undefined;
      const started = performance.now();
      const timeoutMs = options.timeoutMs ?? 10_000;
      while (lease === undefined) {
        lease = await backend.locks.tryAcquire(lockName, options.runner, options.leaseMs ?? DEFAULT_LEASE_MS);
        if (lease !== undefined) break;
        if (performance.now() - started >= timeoutMs) {
          const now = await backend.locks.holder(lockName);
          throw new StoreError('lock-timeout', where, `the log is locked by ${now?.owner ?? 'another runner'}${now ? ` until ${now.leaseUntil}` : ''} (waited ${timeoutMs} ms)`);
        }
        await new Promise((r) => setTimeout(r, SLICE_MS));
      }
      try {
        const { log, text } = await handle.read();
        return { runner: options.runner, content: text, log, leaseUntil: lease.leaseUntil };
      } catch (err) {
        // A log that cannot be read or parsed is not worth holding: give the lock back.
        await backend.locks.release(lease).catch(() => undefined);
        throw err;
      }
    },
    async holder() {
      return (await backend.locks.holder(lockName))?.owner;
    },
    // The log is a document of the backend: no runner writes it by hand, so there is no edit to judge.
    async unlock(runner) {
      const held = await backend.locks.holder(lockName);
      if (held === undefined) throw new JixoError('lock-not-held', `${runner} cannot unlock: the log is not locked`, { path: where });
      if (held.owner !== runner) throw new JixoError('lock-not-held', `${runner} cannot unlock: the lock is held by ${held.owner}`, { path: where });
      await backend.locks.release(held);
    },
    async renewRunnerLock(runner, leaseMs) {
      const held = await backend.locks.holder(lockName);
      if (held?.owner !== runner) return false;
      try {
        await backend.locks.renew(held, leaseMs);
        return true;
      } catch {
        return false;
      }
    },
    async releaseRunnerLock(runner) {
      const held = await backend.locks.holder(lockName);
      if (held?.owner !== runner) return false;
      return backend.locks.release(held);
    },
  };
  return handle;
}
