/**
 * The write half of principle 4, shared by documents and JSONL files: take the inter-process lock,
 * clear what killed writers left behind, let the caller re-read and compute inside the lock, and
 * check the lock is still ours just before the atomic rename.
 */
import { pendingTempName } from './digest.js';
import { resolveInsideRoot } from './inside-root.js';
import { removeLeftovers, withLock, type LockOptions } from './lock.js';

export interface WriterOptions {
  /** Lock behaviour for updates (timeout, clock, staleness of other-host holders, holder metadata). */
  lock?: Omit<LockOptions, 'leaseMs' | 'createParentDirs'>;
  /** Refuse to read files larger than this (bytes). Default 16 MiB. */
  maxBytes?: number;
  /** Create missing parent directories on the first write. Default false: a missing directory is a NotFoundError. */
  createParentDirs?: boolean;
  /**
   * The project root the file must stay in: checked on every read and update, symbolic links on the
   * file and its directories followed (`resolveInsideRoot`); a file leading out is an OutsideRootError.
   */
  root?: string;
}

/** The file's path, or OutsideRootError when `root` is set and the path leads out of it (checked now: links change). */
export function confined(path: string, options: WriterOptions): string {
  return options.root === undefined ? path : resolveInsideRoot(options.root, path, { allowAbsolute: true });
}

export async function lockedUpdate<R>(path: string, options: WriterOptions, fn: (beforeRename: () => Promise<void>) => Promise<R>): Promise<R> {
  // A document lock is always tied to this process: a lease would let a crashed writer block others.
  const lockOptions: LockOptions = { ...options.lock, leaseMs: undefined, createParentDirs: options.createParentDirs ?? false };
  confined(path, options);
  return withLock(
    path,
    async (lock) => {
      // Again inside the lock: the check before it kept a lock file from being made through a link.
      confined(path, options);
      // Not the temp file the digest record names: while it exists, the replaced content still reads as good.
      const keep = pendingTempName(path);
      await removeLeftovers(lock, keep === undefined ? lockOptions : { ...lockOptions, keep });
      return fn(() => lock.verify());
    },
    lockOptions,
  );
}
