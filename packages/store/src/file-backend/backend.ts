/**
 * The file backend of the storage port: state in files under the project root, with no setup. See
 * documents.ts, logs.ts, queues.ts and locks.ts for where each kind of state lives.
 */
import type { StorageBackend } from '../port/storage-port.js';
import { fileContext, type FileBackendOptions } from './context.js';
import { fileDocuments } from './documents.js';
import { fileLocks } from './locks.js';
import { fileLogs } from './logs.js';
import { fileQueues } from './queues.js';

export type { FileBackendOptions } from './context.js';

/** A backend storing key K at `<root>/K`; nothing is created until the first write. */
export function createFileBackend(root: string, options: FileBackendOptions = {}): StorageBackend {
  const ctx = fileContext(root, options);
  const clock = options.lock?.clock ?? Date.now;
  const documents = fileDocuments(ctx);
  const backend: StorageBackend & { readonly root: string } = {
    kind: 'file',
    location: ctx.location,
    root: ctx.root,
    limits: { maxDocumentBytes: ctx.maxDocumentBytes },
    documents,
    logs: fileLogs(ctx),
    queues: fileQueues(ctx, documents, clock),
    locks: fileLocks(ctx, clock),
    // Nothing to release: every operation opens and closes its own files.
    close: () => Promise.resolve(),
  };
  return backend;
}

/** The project root of a file backend, or undefined for any other backend (for file-only fast paths). */
export function fileBackendRoot(backend: StorageBackend): string | undefined {
  return backend.kind === 'file' && 'root' in backend && typeof backend.root === 'string' ? backend.root : undefined;
}

/**
 * The backend when state lives in it rather than in the caller's own files: undefined for none or
 * for the file backend, whose documents are the very files a package opens by path (with its own
 * options: --state paths, size limits, sync reads). Packages branch on this, not on `kind`.
 */
export function sharedBackendOf(backend: StorageBackend | undefined): StorageBackend | undefined {
  return backend !== undefined && backend.kind !== 'file' ? backend : undefined;
}
