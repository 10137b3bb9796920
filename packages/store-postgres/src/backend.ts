import { StoreError, redactUrl } from '@ratchet/store';
import type { StorageBackend } from '@ratchet/store';
import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import { inTransaction, query } from './connection.js';
import type { Context } from './context.js';
import { documentStore } from './documents.js';
import { lockStore } from './locks.js';
import { logStore } from './logs.js';
import { migrate } from './migrations.js';
import { queueStore } from './queues.js';

export interface PostgresBackendOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`); `?host=/dir` for a unix socket. */
  url: string;
  /** The project every row belongs to: one database holds many projects. */
  project: string;
  pool?: { max?: number };
  /** The largest document (UTF-8 bytes of its JSON) accepted; default 16 MiB. */
  maxDocumentBytes?: number;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
// PostgreSQL's own ceiling for one text value is 1 GB; stay well under it.
const HARD_MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;

/**
 * The PostgreSQL implementation of the storage port. Nothing connects until the first operation
 * (a CLI command that never touches state never opens a socket); the first operation opens a
 * `pg.Pool`, applies missing schema migrations, and later operations reuse the pool, so long-lived
 * processes keep their connections. `close()` ends the pool.
 */
export function createPostgresBackend(options: PostgresBackendOptions): StorageBackend {
  const { url, project } = options;
  if (!/^postgres(ql)?:\/\//iu.test(url)) throw new TypeError(`not a PostgreSQL URL (postgres://... or postgresql://...): ${redactUrl(url)}`);
  if (typeof project !== 'string' || project === '') throw new TypeError('createPostgresBackend needs a non-empty project id');
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!Number.isInteger(maxDocumentBytes) || maxDocumentBytes <= 0 || maxDocumentBytes > HARD_MAX_DOCUMENT_BYTES) {
    throw new RangeError(`maxDocumentBytes must be an integer from 1 to ${HARD_MAX_DOCUMENT_BYTES}`);
  }
  const location = redactUrl(url);

  let pool: pg.Pool | undefined;
  let ready: Promise<pg.Pool> | undefined;
  let closed = false;

  function open(): Promise<pg.Pool> {
    if (closed) return Promise.reject(new StoreError('backend-unavailable', location, 'this backend has been closed'));
    ready ??= (async () => {
      pool = new pg.Pool({ connectionString: url, max: options.pool?.max ?? 10, connectionTimeoutMillis: 15_000 });
      // An idle client losing its server connection must not crash the process: the next
      // operation gets a fresh client (or a BackendUnavailableError).
      pool.on('error', () => undefined);
      await migrate(pool, location);
      return pool;
    })().catch((err: unknown) => {
      // Let the next operation try again (the server may be back), rather than caching the failure.
      ready = undefined;
      const failed = pool;
      pool = undefined;
      void failed?.end().catch(() => undefined);
      throw err;
    });
    return ready;
  }

  const ctx: Context = {
    project,
    location,
    maxDocumentBytes,
    async query<R extends QueryResultRow>(text: string, values: unknown[] = [], name?: string) {
      return query<R>(await open(), location, text, values, name);
    },
    async transaction<T>(fn: (client: PoolClient) => Promise<T>) {
      return inTransaction(await open(), location, fn);
    },
  };

  return {
    kind: 'postgres',
    location,
    limits: { maxDocumentBytes },
    documents: documentStore(ctx),
    logs: logStore(ctx),
    queues: queueStore(ctx),
    locks: lockStore(ctx),
    async close() {
      closed = true;
      const opening = ready;
      ready = undefined;
      await opening?.catch(() => undefined);
      const current = pool;
      pool = undefined;
      await current?.end();
    },
  };
}
