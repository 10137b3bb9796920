/** What the parts of the file backend share: the root, limits, and turning keys into confined paths. */
import { resolve } from 'node:path';
import { resolveInsideRoot } from '../inside-root.js';
import { DEFAULT_MAX_BYTES } from '../read-file.js';
import type { LockOptions } from '../lock.js';
import { assertKey } from '../port/keys.js';

export interface FileBackendOptions {
  /** The largest document file (UTF-8 bytes of the pretty-printed JSON) accepted. Default 16 MiB, the limit reads use. */
  maxDocumentBytes?: number;
  /** The largest log file read (bytes). Default 256 MiB. */
  maxLogBytes?: number;
  /** Lock behaviour of every update (timeout, metadata). */
  lock?: Omit<LockOptions, 'leaseMs' | 'createParentDirs'>;
}

export interface FileContext {
  readonly root: string;
  readonly location: string;
  readonly maxDocumentBytes: number;
  readonly maxLogBytes: number;
  readonly lock: Omit<LockOptions, 'leaseMs' | 'createParentDirs'>;
  /** The absolute path of `key`, refused when the key is invalid or leads out of the root (symbolic links followed). */
  pathOf(key: string): string;
  /** `location#key`, how errors name a key. */
  where(key: string): string;
}

/** Internal state lives here; `documents.list` and `logs.list` do not show it. */
export const QUEUES_DIR = '.ratchet/queues';
export const LOCKS_DIR = '.ratchet/locks';

export function fileContext(root: string, options: FileBackendOptions): FileContext {
  const absRoot = resolve(root);
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxDocumentBytes) || maxDocumentBytes < 1) throw new RangeError(`maxDocumentBytes must be a positive integer, got ${String(maxDocumentBytes)}`);
  const maxLogBytes = options.maxLogBytes ?? 256 * 1024 * 1024;
  if (!Number.isSafeInteger(maxLogBytes) || maxLogBytes < 1) throw new RangeError(`maxLogBytes must be a positive integer, got ${String(maxLogBytes)}`);
  return {
    root: absRoot,
    location: absRoot,
    maxDocumentBytes,
    maxLogBytes,
    lock: options.lock ?? {},
    pathOf(key) {
      assertKey(absRoot, key);
      return resolveInsideRoot(absRoot, key);
    },
    where: (key) => `${absRoot}#${key}`,
  };
}
