/**
 * Documents on the file backend: the document with key K is the file `<root>/K`, written exactly as
 * `openDocument` writes it (2-space JSON and a newline) through the same machinery: the file's lock,
 * an atomic rename, and the digest record `<file>.digest`, which also keeps the revision (a file
 * without one, written before revisions existed, reads as revision 1). Hand edits are refused as
 * they are for `openDocument` (TamperedError).
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkDigestRevision, digestPathFor, previousPathFor, recordRemoval, writeTracked } from '../digest.js';
import { DocumentTooLargeError, NotFoundError, RevisionConflictError, ValidationError } from '../errors.js';
import { parseJson } from '../json-parse.js';
import { lockedUpdate } from '../locked-update.js';
import { fsyncDirectory } from '../atomic-write.js';
import { readTextFileSync } from '../read-file.js';
import { assertJsonObject } from '../port/json-value.js';
import type { DocumentStore, DocumentUpdater, JsonObject, StoredDocument, UpdateDocumentOptions } from '../port/storage-port.js';
import { LOCKS_DIR, QUEUES_DIR, type FileContext } from './context.js';
import { listKeys } from './walk.js';

export function fileDocuments(ctx: FileContext): DocumentStore {
  const writerOptions = { root: ctx.root, createParentDirs: true, maxBytes: ctx.maxDocumentBytes, lock: ctx.lock };
  return {
    get(key) {
      try {
        return Promise.resolve(readDocument(ctx, key, ctx.pathOf(key)));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
    async update(key: string, fn: DocumentUpdater, options: UpdateDocumentOptions = {}) {
      const path = ctx.pathOf(key);
      const expected = options.expectedRevision;
      if (expected !== undefined && (!Number.isSafeInteger(expected) || expected < 0)) throw new RangeError(`expectedRevision must be an integer >= 0, got ${String(expected)}`);
      return lockedUpdate(path, writerOptions, async (beforeRename) => {
        const read = readDocumentText(ctx, key, path);
        const current = read === undefined ? undefined : { key, value: read.value, revision: read.revision };
        if (expected !== undefined && (current?.revision ?? 0) !== expected) throw new RevisionConflictError(ctx.location, key, expected, current?.revision ?? 0);
        // The updater gets its own copy: a mutation it makes and then abandons by throwing changes nothing.
        const next = await fn(current === undefined ? undefined : { ...current, value: structuredClone(current.value) });
        if (next === undefined) return current;
        assertJsonObject(ctx.where(key), next);
        const text = `${JSON.stringify(next, null, 2)}\n`;
        const size = Buffer.byteLength(text, 'utf8');
        if (size > ctx.maxDocumentBytes) throw new DocumentTooLargeError(ctx.location, key, size, ctx.maxDocumentBytes);
        const revision = (current?.revision ?? 0) + 1;
        const writtenAt = new Date((ctx.lock.clock ?? Date.now)()).toISOString();
        await writeTracked(path, text, { writtenAt, replacing: read?.text, beforeRename, revision, maxBytes: ctx.maxDocumentBytes });
        return { key, value: parseJson(text, { path }) as JsonObject, revision };
      });
    },
    async delete(key) {
      const path = ctx.pathOf(key);
      if (!existsSync(dirname(path))) return false;
      return lockedUpdate(path, { ...writerOptions, createParentDirs: false }, async (beforeRename) => {
        // Refuses a tampered or unreadable file like an update would: a delete is a write.
        if (readDocumentText(ctx, key, path) === undefined) return false;
        await beforeRename();
        // The data first, the record last: a crash in between leaves no file (reads as absent) or a
        // file with its record (reads as before), never a file whose record is gone.
        rmSync(path, { force: true });
        rmSync(previousPathFor(path), { force: true });
        rmSync(digestPathFor(path), { force: true });
        await fsyncDirectory(dirname(path));
        await recordRemoval(path);
        return true;
      });
    },
    list(prefix = '') {
      try {
        // A document is a file with a digest record beside it: every document this backend writes has one.
        return Promise.resolve(listKeys(ctx, prefix, (_key, name, siblings) => siblings.has(`${name}.digest`), [QUEUES_DIR, LOCKS_DIR]));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

/** The document at `path` (undefined: none), its digest checked. */
export function readDocument(ctx: FileContext, key: string, path: string): StoredDocument | undefined {
  const read = readDocumentText(ctx, key, path);
  return read === undefined ? undefined : { key, value: read.value, revision: read.revision };
}

function readDocumentText(ctx: FileContext, key: string, path: string): { text: string; value: JsonObject; revision: number } | undefined {
  const reread = (): string | undefined => {
    try {
      return readTextFileSync(path, { maxBytes: ctx.maxDocumentBytes }).text;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
  const { text, revision } = checkDigestRevision(path, reread(), reread);
  if (text === undefined) return undefined;
  const value = parseJson(text, { path });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(path, [{ pointer: '', message: `expected a JSON object, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}` }], 'file');
  }
  return { text, value: value as JsonObject, revision };
}
