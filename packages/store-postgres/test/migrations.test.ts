import { afterAll, expect, it } from 'vitest';
import { createPostgresBackend } from '../src/index.js';
import { closeBackends, describePg, freshDatabase, openBackend, ratchetTables, withClient } from './support/postgres.js';

afterAll(closeBackends);

describePg('connecting and migrating', () => {
  it('nothing connects until the first operation', async () => {
    // A socket directory that does not exist: creating the backend must not touch it.
    const backend = createPostgresBackend({ url: 'postgres://ratchet:pw@localhost/postgres?host=/nonexistent-ratchet-dir', project: 'p' });
    expect(backend.kind).toBe('postgres');
    expect(backend.location).not.toContain('pw');
    await backend.close();
    const url = await freshDatabase();
    const lazy = createPostgresBackend({ url, project: 'p' });
    expect(await ratchetTables(url)).toEqual([]);
    await lazy.documents.list();
    expect(await ratchetTables(url)).toContain('ratchet_schema');
    await lazy.close();
    await expect(lazy.documents.list()).rejects.toThrow(/closed/u);
  });

  it('upgrades an older schema in place, keeping its data', async () => {
    const url = await freshDatabase();
    const backend = openBackend({ url });
    await backend.documents.update('kept.json', () => ({ kept: true }));
    // This database is at SCHEMA_VERSION; a newer Ratchet adds a step. Three concurrent first uses
    // of the newer code apply that step exactly once (a second run of CREATE TABLE would fail).
    const { migrate } = await import('../src/migrations.js');
    const { MIGRATIONS } = await import('../src/schema.js');
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: url });
    try {
      const next = [...MIGRATIONS, 'CREATE TABLE ratchet_future (x int)'];
      await Promise.all([migrate(pool, 'loc', next), migrate(pool, 'loc', next), migrate(pool, 'loc', next)]);
      expect(await ratchetTables(url)).toContain('ratchet_future');
      const schema = await withClient((c) => c.query<{ version: number }>('SELECT version FROM ratchet_schema'), url);
      expect(schema.rows).toEqual([{ version: MIGRATIONS.length + 1 }]);
    } finally {
      await pool.end();
    }
    expect((await backend.documents.get('kept.json'))?.value).toEqual({ kept: true });
  });
});
