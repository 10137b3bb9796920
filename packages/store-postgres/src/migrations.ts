import { BackendSchemaError } from '@ratchet/store';
import type { Pool, PoolClient } from 'pg';
import { connect, describeFailure, inTransaction, release, transactionOn, type Site } from './connection.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** The advisory-lock class ids this package uses (first argument of pg_advisory_xact_lock(int, int)). */
export const ADVISORY = { migrations: 0x52415443, documentCreation: 0x52415444 } as const;

async function currentVersion(client: Pool | PoolClient): Promise<number | undefined> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('ratchet_schema')::text AS t`);
  if (!exists.rows[0]?.t) return undefined;
  const row = await client.query<{ version: number }>('SELECT version FROM ratchet_schema WHERE id = 1');
  return row.rows[0]?.version;
}

function tooNew(location: string, version: number): BackendSchemaError {
  return new BackendSchemaError(
    location,
    `the database's Ratchet schema is version ${version}, newer than this Ratchet understands (${SCHEMA_VERSION}): upgrade @ratchet/store-postgres (and the CLI) on this machine; nothing was read or written`,
  );
}

/**
 * Brings the database to SCHEMA_VERSION, or refuses one that is newer. The common case (already
 * current) is one cheap read without any lock.
 */
export async function migrate(pool: Pool, site: Site | string, migrations: readonly string[] = MIGRATIONS): Promise<void> {
  const location = typeof site === 'string' ? site : site.location;
  const seen = await inTransaction(pool, site, (client) => currentVersion(client));
  if (seen !== undefined && seen > migrations.length) throw tooNew(location, seen);
  if (seen === migrations.length) return;
  // A session-level lock, taken before the transaction: a transaction that started before another
  // process committed its migration keeps a stale catalog cache (to_regclass would still say "no
  // ratchet_schema"), so the re-check must run in a transaction begun after the lock is ours.
  const client = await connect(pool, site);
  try {
    await client.query('SELECT pg_advisory_lock($1, 0)', [ADVISORY.migrations]);
    try {
      await transactionOn(client, site, async () => {
        const version = await currentVersion(client);
        if (version !== undefined && version > migrations.length) throw tooNew(location, version);
        if (version === undefined) {
          await client.query(`CREATE TABLE ratchet_schema (
            id integer PRIMARY KEY CHECK (id = 1),
            version integer NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
          )`);
          await client.query('INSERT INTO ratchet_schema (id, version) VALUES (1, 0)');
        }
        for (let step = version ?? 0; step < migrations.length; step++) await client.query(migrations[step] as string);
        await client.query('UPDATE ratchet_schema SET version = $1, applied_at = now() WHERE id = 1', [migrations.length]);
      });
    } finally {
      // (If the connection died, the server released the lock with the session.)
      await client.query('SELECT pg_advisory_unlock($1, 0)', [ADVISORY.migrations]).catch(() => undefined);
    }
  } catch (err) {
    throw describeFailure(site, err);
  } finally {
    release(client);
  }
}
