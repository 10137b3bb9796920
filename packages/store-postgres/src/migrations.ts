import { BackendSchemaError } from '@ratchet/store';
import type { Pool, PoolClient } from 'pg';
import { connect, describeFailure, inTransaction, release, transactionOn } from './connection.js';

/**
 * The schema, as numbered steps. A database records the last step applied in `ratchet_schema`; the
 * first use of a backend applies the missing steps in one transaction under an advisory lock, so
 * many processes starting at once apply them exactly once and a crash leaves nothing half-made
 * (PostgreSQL DDL is transactional). Steps are append-only: never edit one that has shipped.
 *
 * Values are `text` holding JSON, not `jsonb` (which reorders keys and drops duplicates): what a
 * caller wrote is what the next reader parses. Every row carries `project`, so one database holds
 * many projects.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE ratchet_documents (
    project text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    revision bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, key)
  );
  -- A log's last seq, locked by each append: appenders queue on this row, so seqs stay gap-free.
  CREATE TABLE ratchet_log_heads (
    project text NOT NULL,
    key text NOT NULL,
    last_seq bigint NOT NULL,
    PRIMARY KEY (project, key)
  );
  CREATE TABLE ratchet_log_entries (
    project text NOT NULL,
    key text NOT NULL,
    seq bigint NOT NULL,
    record text NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project, key, seq)
  );
  CREATE TABLE ratchet_queue_items (
    project text NOT NULL,
    queue text NOT NULL,
    id text NOT NULL,
    state text NOT NULL CHECK (state IN ('ready', 'claimed', 'done')),
    priority double precision NOT NULL,
    offer_seq bigserial NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    owner text,
    lease_until timestamptz,
    PRIMARY KEY (project, queue, id)
  );
  -- A claim looks at two small sets: ready items in claim order, and claimed items by lease end.
  CREATE INDEX ratchet_queue_items_ready ON ratchet_queue_items (project, queue, priority, offer_seq) WHERE state = 'ready';
  CREATE INDEX ratchet_queue_items_claimed ON ratchet_queue_items (project, queue, lease_until) WHERE state = 'claimed';
  CREATE TABLE ratchet_lost_attempts (
    seq bigserial PRIMARY KEY,
    project text NOT NULL,
    queue text NOT NULL,
    id text NOT NULL,
    owner text NOT NULL,
    attempt integer NOT NULL,
    lease_until timestamptz NOT NULL,
    recovered_at timestamptz NOT NULL
  );
  CREATE INDEX ratchet_lost_attempts_queue ON ratchet_lost_attempts (project, queue, seq);
  CREATE TABLE ratchet_locks (
    project text NOT NULL,
    name text NOT NULL,
    owner text NOT NULL,
    token text NOT NULL,
    lease_until timestamptz NOT NULL,
    PRIMARY KEY (project, name)
  );
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

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
export async function migrate(pool: Pool, location: string, migrations: readonly string[] = MIGRATIONS): Promise<void> {
  const seen = await inTransaction(pool, location, (client) => currentVersion(client));
  if (seen !== undefined && seen > migrations.length) throw tooNew(location, seen);
  if (seen === migrations.length) return;
  // A session-level lock, taken before the transaction: a transaction that started before another
  // process committed its migration keeps a stale catalog cache (to_regclass would still say "no
  // ratchet_schema"), so the re-check must run in a transaction begun after the lock is ours.
  const client = await connect(pool, location);
  try {
    await client.query('SELECT pg_advisory_lock($1, 0)', [ADVISORY.migrations]);
    try {
      await transactionOn(client, location, async () => {
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
    throw describeFailure(location, err);
  } finally {
    release(client);
  }
}
