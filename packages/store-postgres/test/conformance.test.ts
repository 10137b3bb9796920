/**
 * The storage port's conformance kit (@ratchet/store/conformance) against a real PostgreSQL, plus
 * this backend's own capabilities: schema migrations and the refusal of a newer schema.
 */
import { BackendSchemaError } from '@ratchet/store';
import { describeStorageConformance } from '@ratchet/store/conformance';
import { expect, it } from 'vitest';
import { SCHEMA_VERSION, createPostgresBackend } from '../src/index.js';
import { childNodeOptions, conformanceWorker, describePg, freshDatabase, freshProject, pgUrl, ratchetTables, runWorker, withClient } from './support/postgres.js';

describePg('PostgreSQL backend', () => {
  // The kit's children run `node -e` programs that import the worker's TypeScript source.
  process.env.NODE_OPTIONS = childNodeOptions(process.env.NODE_OPTIONS);
  describeStorageConformance({
    name: 'PostgreSQL',
    // A fresh project per test: every row is keyed by project, so tests never see each other's state.
    create: () => {
      const project = freshProject('conformance');
      process.env.RATCHET_CONFORMANCE_PG_URL = pgUrl;
      process.env.RATCHET_CONFORMANCE_PG_PROJECT = project;
      return createPostgresBackend({ url: pgUrl, project, maxDocumentBytes: 64 * 1024 });
    },
    workerModule: conformanceWorker,
    capabilities: () => {
      it('migrations are applied once on first use, even by many processes starting at once', async () => {
        const url = await freshDatabase();
        expect(await ratchetTables(url)).toEqual([]);
        const outputs = await Promise.all(Array.from({ length: 6 }, () => runWorker<string>([url, 'p', 'open'])));
        expect(outputs).toEqual(Array(6).fill('ok'));
        expect(await ratchetTables(url)).toEqual(['ratchet_documents', 'ratchet_locks', 'ratchet_log_entries', 'ratchet_log_heads', 'ratchet_lost_attempts', 'ratchet_queue_items', 'ratchet_schema']);
        const schema = await withClient((c) => c.query<{ version: number }>('SELECT version FROM ratchet_schema'), url);
        expect(schema.rows).toEqual([{ version: SCHEMA_VERSION }]);
      });

      it('a database with a newer schema is refused with the redacted URL, and nothing is written', async () => {
        const url = await freshDatabase();
        const first = createPostgresBackend({ url, project: 'p' });
        await first.documents.list();
        await first.close();
        await withClient((c) => c.query('UPDATE ratchet_schema SET version = $1', [SCHEMA_VERSION + 1]), url);
        const withPassword = url.replace('postgres://ratchet@', 'postgres://ratchet:s3cret-pw@');
        const backend = createPostgresBackend({ url: withPassword, project: 'p' });
        const err = await backend.documents.update('x.json', () => ({ written: true })).catch((e: unknown) => e);
        await backend.close();
        expect(err).toBeInstanceOf(BackendSchemaError);
        expect(String((err as Error).message)).toContain(`version ${SCHEMA_VERSION + 1}`);
        expect(String((err as Error).message)).toContain('ratchet:***@');
        expect(String((err as Error).message)).not.toContain('s3cret-pw');
        const rows = await withClient((c) => c.query('SELECT * FROM ratchet_documents'), url);
        expect(rows.rowCount).toBe(0);
      });
    },
  });
});
