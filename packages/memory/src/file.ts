/**
 * memory.json through @ratchet/store: locked read-modify-write, atomic rename, and a file that does
 * not parse or validate is reported with its place and never overwritten. On a shared storage
 * backend (PostgreSQL, for several machines) the same document lives there under its
 * project-relative key, with the same envelope, validation and locked updates.
 */
import { defineDocument, openDocument, openStoredDocument, sharedBackendOf, type Document, type DocumentOptions, type StorageBackend } from '@ratchet/store';
import { MemoryError } from './errors.js';
import type { MemoryData } from './types.js';
import { memoryDataSchema } from './validate.js';

export const MEMORY_SCHEMA_URL = 'https://unpkg.com/@ratchet/memory/schemas/memory.schema.json';
export const MEMORY_SCHEMA_VERSION = 1;
/** Where the CLI keeps memory, relative to the project root. */
export const DEFAULT_MEMORY_PATH = '.ratchet/memory.json';

export const memoryDocument = defineDocument<MemoryData>({
  schema: memoryDataSchema,
  version: MEMORY_SCHEMA_VERSION,
  $schema: MEMORY_SCHEMA_URL,
  initial: { failures: [], patterns: [] },
});

export interface MemoryStoreOptions extends DocumentOptions {
  /**
   * A shared storage backend (PostgreSQL through @ratchet/store-postgres): memory is the document
   * `key` there (its project-relative path, e.g. `.ratchet/memory.json`) instead of the file at
   * `path`. Without one, or on the file backend, the file at `path` is used as always.
   */
  backend?: StorageBackend | undefined;
  key?: string | undefined;
}

/** Open memory (it need not exist: it reads as empty and the first update creates it). */
export function openMemory(path: string, options: MemoryStoreOptions = {}): Document<MemoryData> {
  const { backend, key, ...file } = options;
  const shared = sharedBackendOf(backend);
  if (shared !== undefined) {
    if (key === undefined) throw new MemoryError('bad-input', 'memory on a shared backend needs the key of its document (e.g. ".ratchet/memory.json")');
    return openStoredDocument(shared, key, memoryDocument);
  }
  return openDocument(path, memoryDocument, file);
}
