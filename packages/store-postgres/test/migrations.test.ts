import { BackendSchemaError } from '@ratchet/store';
import { afterAll, expect, it } from 'vitest';
import { SCHEMA_VERSION, createPostgresBackend } from '../src/index.js';
import { closeBackends, describePg, freshDatabase, openBackend, runWorker, withClient } from './support/postgres.js';

afterAll(closeBackends);

const tables = (url: string): Promise<string[]> =>
  withClient(async (c) => (await c.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE tablename LIKE 'ratchet%' ORDER BY 1`)).rows.map((r) => r.t), url);

describePg('schema migrations', () => {
  it('are applied once on first use, even by many processes starting at once', async () => {
    const url = await freshDatabase();
    expect(await tables(url)).toEqual([]);
    const outputs = await Promise.all(Array.from({ length: 6 }, () => runWorker<string>([url, 'p', 'open'])));
    expect(outputs).toEqual(Array(6).fill('ok'));
    expect(await tables(url)).toEqual(['ratchet_documents', 'ratchet_locks', 'ratchet_log_entries', 'ratchet_log_heads', 'ratchet_lost_attempts', 'ratchet_queue_items', 'ratchet_schema']);
    const schema = await withClient((c) => c.query<{ version: number }>('SELECT version FROM ratchet_schema'), url);
    expect(schema.rows).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it('nothing connects until the first operation', async () => {
    // A socket directory that does not exist: creating the backend must not touch it.
    const backend = createPostgresBackend({ url: 'postgres://ratchet:pw@localhost/postgres?host=/nonexistent-ratchet-dir', project: 'p' });
    expect(backend.kind).toBe('postgres');
    expect(backend.location).not.toContain('pw');
    await backend.close();
    const url = await freshDatabase();
    const lazy = createPostgresBackend({ url, project: 'p' });
    expect(await tables(url)).toEqual([]);
    await lazy.documents.list();
    expect(await tables(url)).toContain('ratchet_schema');
    await lazy.close();
    await expect(lazy.documents.list()).rejects.toThrow(/closed/u);
  });

  it('a database with a newer schema is refused with the redacted URL, and nothing is written', async () => {
    const url = await freshDatabase();
    await openBackend({ url }).documents.list();
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

  it('upgrades an older schema in place, keeping its data', async () => {
    const url = await freshDatabase();
    const backend = openBackend({ url });
    await backend.documents.update('kept.json', () => ({ kept: true }));
    // This database is at SCHEMA_VERSION; a newer Ratchet adds a step. Three concurrent first uses
    // of the newer code apply that step exactly once (a second run of CREATE TABLE would fail).
    const { migrate, MIGRATIONS } = await import('../src/migrations.js');
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: url });
    try {
      const next = [...MIGRATIONS, 'CREATE TABLE ratchet_future (x int)'];
      await Promise.all([migrate(pool, 'loc', next), migrate(pool, 'loc', next), migrate(pool, 'loc', next)]);
      expect(await tables(url)).toContain('ratchet_future');
      const schema = await withClient((c) => c.query<{ version: number }>('SELECT version FROM ratchet_schema'), url);
      expect(schema.rows).toEqual([{ version: MIGRATIONS.length + 1 }]);
    } finally {
      await pool.end();
    }
    expect((await backend.documents.get('kept.json'))?.value).toEqual({ kept: true });
  });
});
