import { DocumentTooLargeError, RevisionConflictError, assertJsonObject, assertKey, assertPrefix } from '@ratchet/store';
import type { DocumentStore, DocumentUpdater, StoredDocument, UpdateDocumentOptions } from '@ratchet/store';
import type { PoolClient } from 'pg';
import type { Context } from './context.js';
import { ADVISORY } from './migrations.js';

interface DocumentRow {
  value: string;
  revision: string;
}

const toDocument = (key: string, row: DocumentRow): StoredDocument => ({ key, value: JSON.parse(row.value) as StoredDocument['value'], revision: Number(row.revision) });

/**
 * Documents: one row per (project, key) with its revision. An update is one transaction that locks
 * the row (`SELECT ... FOR UPDATE`), runs the caller's function on what it read, and writes
 * revision + 1; concurrent updaters of one document queue on the row lock, so none is lost.
 */
export function documentStore(ctx: Context): DocumentStore {
  const { project, location } = ctx;

  async function lockRow(client: PoolClient, key: string): Promise<DocumentRow | undefined> {
    const select = 'SELECT value, revision FROM ratchet_documents WHERE project = $1 AND key = $2 FOR UPDATE';
    const found = await client.query<DocumentRow>(select, [project, key]);
    if (found.rows[0]) return found.rows[0];
    // No row to lock yet: creators of the same document serialize on an advisory lock held to the
    // end of the transaction instead, then look again (a creator that got there first has committed).
    // (Keys never contain NUL, so it separates project and key; a hash collision only serializes two creators.)
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2 || chr(1) || $3))', [ADVISORY.documentCreation, project, key]);
    return (await client.query<DocumentRow>(select, [project, key])).rows[0];
  }

  return {
    async get(key) {
      assertKey(location, key);
      const rows = await ctx.query<DocumentRow>('SELECT value, revision FROM ratchet_documents WHERE project = $1 AND key = $2', [project, key], undefined, { key, kind: 'document' });
      return rows[0] ? toDocument(key, rows[0]) : undefined;
    },

    async update(key: string, fn: DocumentUpdater, options: UpdateDocumentOptions = {}) {
      assertKey(location, key);
      return ctx.transaction(async (client) => {
        const row = await lockRow(client, key);
        const current = row ? toDocument(key, row) : undefined;
        const revision = current?.revision ?? 0;
        if (options.expectedRevision !== undefined && options.expectedRevision !== revision) {
          throw new RevisionConflictError(location, key, options.expectedRevision, revision);
        }
        const next = await fn(current);
        if (next === undefined) return current;
        assertJsonObject(`${location}#${key}`, next);
        const text = JSON.stringify(next);
        const size = Buffer.byteLength(text, 'utf8');
        if (size > ctx.maxDocumentBytes) throw new DocumentTooLargeError(location, key, size, ctx.maxDocumentBytes);
        await client.query(
          `INSERT INTO ratchet_documents (project, key, value, revision) VALUES ($1, $2, $3, $4)
           ON CONFLICT (project, key) DO UPDATE SET value = EXCLUDED.value, revision = EXCLUDED.revision, updated_at = now()`,
          [project, key, text, revision + 1],
        );
        return { key, value: JSON.parse(text) as StoredDocument['value'], revision: revision + 1 };
      }, { key, kind: 'document' });
    },

    async delete(key) {
      assertKey(location, key);
      const rows = await ctx.query('DELETE FROM ratchet_documents WHERE project = $1 AND key = $2 RETURNING key', [project, key], undefined, { key, kind: 'document' });
      return rows.length > 0;
    },

    async list(prefix = '') {
      assertPrefix(location, prefix);
      const rows = await ctx.query<{ key: string }>('SELECT key FROM ratchet_documents WHERE project = $1 AND starts_with(key, $2)', [project, prefix]);
      return rows.map((r) => r.key).sort();
    },
  };
}
