/**
 * The write half of principle 4, shared by documents and JSONL files: take the inter-process lock,
 * clear what killed writers left behind, let the caller re-read and compute inside the lock, and
 * check the lock is still ours just before the atomic rename.
 */
import { removeLeftovers, withLock, type LockOptions } from './lock.js';

export interface WriterOptions {
  /** Lock behaviour for updates (timeout, clock, staleness of other-host holders, holder metadata). */
  lock?: Omit<LockOptions, 'leaseMs' | 'createParentDirs'>;
  /** Refuse to read files larger than this (bytes). Default 16 MiB. */
  maxBytes?: number;
  /** Create missing parent directories on the first write. Default false: a missing directory is a NotFoundError. */
  createParentDirs?: boolean;
}

export async function lockedUpdate<R>(path: string, options: WriterOptions, fn: (beforeRename: () => Promise<void>) => Promise<R>): Promise<R> {
  // A document lock is always tied to this process: a lease would let a crashed writer block others.
  const lockOptions: LockOptions = { ...options.lock, leaseMs: undefined, createParentDirs: options.createParentDirs ?? false };
  return withLock(
    path,
    async (lock) => {
      await removeLeftovers(lock, lockOptions);
      return fn(() => lock.verify());
    },
    lockOptions,
  );
}
