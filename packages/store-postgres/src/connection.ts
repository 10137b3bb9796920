import { BackendUnavailableError, StoreError } from '@ratchet/store';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { formatWait, type Timeouts } from './settings.js';

/**
 * Where a failure happened, for its message: the redacted URL, the limits in force, and what the
 * operation was about (a document, a queue, a log), so that a refusal says what it waited for.
 */
export interface Site {
  location: string;
  timeouts?: Timeouts;
  /** `path`: the error's path (`<url>#<key>`); `what`: "the document .ratchet/campaign.json". */
  subject?: { path: string; what: string };
}

const siteOf = (site: Site | string): Site => (typeof site === 'string' ? { location: site } : site);

/** What `pg` reports on a failed connect or query: a Node system error or a server error with a SQLSTATE. */
interface PgFailure {
  code?: string;
  message?: string;
}

/**
 * The server and socket errors that mean "this database is not usable from here": host or socket
 * missing, refused, credentials wrong, database missing, server shutting down. Anything else (a
 * constraint we broke, a bug in our SQL) stays what it is.
 */
const UNAVAILABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running and listening there?)',
  ENOENT: 'no server socket there (is the server running? is the host directory right?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset by the server',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'the connection to the server broke (the server went away mid-command)',
  EACCES: 'permission denied on the server socket',
  '28P01': 'authentication failed (wrong user name or password)',
  '28000': 'authentication refused (unknown role, or no pg_hba.conf entry for it)',
  '3D000': 'the database does not exist (create it first: createdb NAME)',
  '57P01': 'the server is shutting down',
  '57P02': 'the server is shutting down',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'too many connections on the server',
  '57P04': 'the database was dropped',
};

/** SQLSTATE class 08, connection exceptions: the connection failed or broke. */
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/u;

/** What pg says, without a code, when the connection is gone or never came. */
const DROPPED = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Client was closed|Connection is closed|This socket has been ended|write after end/iu;

/**
 * Turns a failure that is not Ratchet's doing into a StoreError naming the redacted URL (and the
 * document or queue, where known): the connection failing or breaking is BackendUnavailableError,
 * a lock or statement timeout a refusal saying what it waited for and how long. Anything else (a
 * constraint we broke, a bug in our SQL) stays what it is.
 */
export function describeFailure(where: Site | string, err: unknown): unknown {
  if (err instanceof StoreError) return err;
  const site = siteOf(where);
  const { code, message } = (err ?? {}) as PgFailure;
  const what = site.subject?.what ?? 'a row';
  const path = site.subject?.path ?? site.location;
  if (code === '55P03') {
    const limit = site.timeouts === undefined ? '' : ` ${formatWait(site.timeouts.lockTimeoutMs)}`;
    return new StoreError('lock-timeout', path, `gave up after waiting${limit} for ${what}, which another session holds locked (lock_timeout; to wait longer, add ?lock_timeout=30s to the store URL)`, {}, { cause: err });
  }
  if (code === '57014' && typeof message === 'string' && /statement timeout/iu.test(message)) {
    const limit = site.timeouts === undefined ? '' : ` after ${formatWait(site.timeouts.statementTimeoutMs)}`;
    return new BackendUnavailableError(path, `gave up${limit} on ${what}: the statement ran past statement_timeout (another session may hold what it needs; to allow longer, add ?statement_timeout=2m to the store URL)`, { cause: err });
  }
  const known = code ? (UNAVAILABLE[code] ?? (CONNECTION_EXCEPTION.test(code) ? 'the connection to the server failed' : undefined)) : undefined;
  // pg reports a dropped connection without a code.
  const dropped = !code && typeof message === 'string' && DROPPED.test(message);
  if (!known && !dropped) return err;
  return new BackendUnavailableError(site.location, `cannot use the PostgreSQL database: ${known ?? message}${message && known ? ` (${message})` : ''}`, { cause: err });
}

/** Checks a client out of the pool, mapping a failed connect to BackendUnavailableError. */
export async function connect(pool: Pool, site: Site | string): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    throw describeFailure(site, err);
  }
}

/** Clients whose rollback failed: in an unknown state, destroyed on release instead of pooled. */
const broken = new WeakSet<PoolClient>();

/** Runs `fn` in a transaction on `client`; rolls back on any throw (a failed rollback marks the client broken). */
export async function transactionOn<T>(client: PoolClient, site: Site | string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => broken.add(client));
    throw describeFailure(site, err);
  }
}

export function release(client: PoolClient): void {
  client.release(broken.has(client) ? new Error('the connection broke during a rollback') : undefined);
}

/** Runs `fn` with a pooled client, inside a transaction; rolls back on any throw. */
export async function inTransaction<T>(pool: Pool, site: Site | string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await connect(pool, site);
  try {
    return await transactionOn(client, site, fn);
  } finally {
    release(client);
  }
}

/**
 * One statement on any pooled client (autocommit). A `name` makes it a prepared statement on each
 * connection: the hot paths (claims) skip parsing and planning after the first run.
 */
export async function query<R extends QueryResultRow>(pool: Pool, site: Site | string, text: string, values: unknown[] = [], name?: string): Promise<R[]> {
  try {
    return (await pool.query<R>(name === undefined ? { text, values } : { name, text, values })).rows;
  } catch (err) {
    throw describeFailure(site, err);
  }
}
