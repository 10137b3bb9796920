import { StoreError, redactUrl } from '@ratchet/store';
import type { StorageBackend } from '@ratchet/store';
import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import { inTransaction, query, type Site } from './connection.js';
import type { Context, Subject } from './context.js';
import { documentStore } from './documents.js';
import { lockStore } from './locks.js';
import { logStore } from './logs.js';
import { migrate } from './migrations.js';
import { queueStore } from './queues.js';
import { connectionSettings } from './settings.js';

export interface PostgresBackendOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`); `?host=/dir` for a unix socket. */
  url: string;
  /** The project every row belongs to: one database holds many projects. */
  project: string;
  pool?: { max?: number };
  /** The largest document (UTF-8 bytes of its JSON) accepted; default 16 MiB. */
  maxDocumentBytes?: number;
  /**
   * How long a statement waits for a lock another session holds before giving up (ms; 0: no limit).
   * Default: the URL's `lock_timeout` parameter, else 10 s.
   */
  lockTimeoutMs?: number;
  /** How long a statement may run (ms; 0: no limit). Default: the URL's `statement_timeout`, else 60 s. */
  statementTimeoutMs?: number;
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
  const settings = connectionSettings(url, location, {
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
  });
  const timeouts = { lockTimeoutMs: settings.lockTimeoutMs, statementTimeoutMs: settings.statementTimeoutMs };
  const siteFor = (subject: Subject | undefined): Site => (subject === undefined ? { location, timeouts } : { location, timeouts, subject: { path: `${location}#${subject.key}`, what: `the ${subject.kind} ${subject.key}` } });

  let pool: pg.Pool | undefined;
  let ready: Promise<pg.Pool> | undefined;
  let closed = false;

  function open(): Promise<pg.Pool> {
    if (closed) return Promise.reject(new StoreError('backend-unavailable', location, 'this backend has been closed'));
    ready ??= (async () => {
      pool = new pg.Pool({
        connectionString: settings.connectionString,
        max: options.pool?.max ?? 10,
        connectionTimeoutMillis: 15_000,
        // Sent at connect as session settings (0 is PostgreSQL's "no limit").
        lock_timeout: settings.lockTimeoutMs,
        statement_timeout: settings.statementTimeoutMs,
      });
      // A client losing its server connection must not crash the process. Idle, the pool's 'error'
      // covers it; checked out, the client's own 'error' has no listener unless we add one, and an
      // EventEmitter 'error' without one throws ("Unhandled 'error' event": exit 1 when the server
      // was killed mid-command). Its pending query rejects all the same, and that error is reported.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => {
        client.on('error', () => undefined);
      });
      await migrate(pool, { location, timeouts });
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
    async query<R extends QueryResultRow>(text: string, values: unknown[] = [], name?: string, subject?: Subject) {
      return query<R>(await open(), siteFor(subject), text, values, name);
    },
    async transaction<T>(fn: (client: PoolClient) => Promise<T>, subject?: Subject) {
      return inTransaction(await open(), siteFor(subject), fn);
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
