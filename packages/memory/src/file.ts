/**
 * memory.json on disk, through @ratchet/store: locked read-modify-write, atomic rename, and a file
 * that does not parse or validate is reported with its place and never overwritten.
 */
import { defineDocument, openDocument, type Document, type DocumentOptions } from '@ratchet/store';
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

/** Open memory.json (it need not exist: it reads as empty and the first update creates it). */
export function openMemory(path: string, options: DocumentOptions = {}): Document<MemoryData> {
  return openDocument(path, memoryDocument, options);
}
