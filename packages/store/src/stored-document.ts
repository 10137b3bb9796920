/**
 * `openStoredDocument(backend, key, definition)`: the `Document<T>` of `openDocument` (schemaVersion
 * envelope, migrations, validation, locked `update`) on any storage backend, so a package moves to
 * the port by passing a backend and a key instead of a path.
 *
 * On the file backend it *is* `openDocument` on `<root>/<key>` (confined to the root): same files,
 * same bytes, same errors, and `readSync` for start-up paths. On other backends `readSync` throws
 * (a database cannot be read synchronously), and errors name `location#key`; an update always writes
 * (as `openDocument` does), through the backend's locked read-modify-write.
 */
import { decode, envelope, initialOf, openDocument, type Document, type DocumentDefinition, type DocumentOptions } from './document.js';
import { fileBackendRoot } from './file-backend/backend.js';
import { assertKey } from './port/keys.js';
import type { JsonObject, StorageBackend } from './port/storage-port.js';
import { resolveInsideRoot } from './inside-root.js';
import { validate } from './validate.js';

export interface StoredDocumentOptions {
  /** File backend only: the options `openDocument` takes (lock, maxBytes). Parent directories are always created. */
  file?: Omit<DocumentOptions, 'root' | 'createParentDirs'>;
}

export function openStoredDocument<T extends object>(backend: StorageBackend, key: string, definition: DocumentDefinition<T>, options: StoredDocumentOptions = {}): Document<T> {
  assertKey(backend.location, key);
  const root = fileBackendRoot(backend);
  if (root !== undefined) {
    return openDocument(resolveInsideRoot(root, key), definition, { ...options.file, root, createParentDirs: true });
  }
  const where = `${backend.location}#${key}`;
  const load = (value: JsonObject | undefined): T => (value === undefined ? initialOf(definition, where) : decode(definition, value, JSON.stringify(value, null, 2), where));
  return {
    path: where,
    async read() {
      return load((await backend.documents.get(key))?.value);
    },
    readSync() {
      throw new TypeError(`readSync works on the file backend only; ${where} is on the ${backend.kind} backend: use read()`);
    },
    async update(fn) {
      let result: T | undefined;
      await backend.documents.update(key, async (current) => {
        const draft = load(current?.value);
        const returned = await fn(draft);
        result = validate(definition.schema, returned ?? draft, { path: where, source: 'update' });
        return envelope(definition, result) as JsonObject;
      });
      return result as T;
    },
  };
}
