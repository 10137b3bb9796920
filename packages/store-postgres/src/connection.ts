import { BackendUnavailableError, StoreError } from '@ratchet/store';
import type { Pool, PoolClient, QueryResultRow } from 'pg';

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
  EACCES: 'permission denied on the server socket',
  '28P01': 'authentication failed (wrong user name or password)',
  '28000': 'authentication refused (unknown role, or no pg_hba.conf entry for it)',
  '3D000': 'the database does not exist (create it first: createdb NAME)',
  '57P01': 'the server is shutting down',
  '57P02': 'the server is shutting down',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'too many connections on the server',
};

/** Turns a connection-level failure into `BackendUnavailableError` naming the redacted URL. */
export function describeFailure(location: string, err: unknown): unknown {
  if (err instanceof StoreError) return err;
  const { code, message } = (err ?? {}) as PgFailure;
  const known = code ? UNAVAILABLE[code] : undefined;
  // pg reports a dropped connection without a code.
  const dropped = !code && typeof message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error/iu.test(message);
  if (!known && !dropped) return err;
  return new BackendUnavailableError(location, `cannot use the PostgreSQL database: ${known ?? message}${message && known ? ` (${message})` : ''}`, { cause: err });
}

/** Checks a client out of the pool, mapping a failed connect to BackendUnavailableError. */
export async function connect(pool: Pool, location: string): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    throw describeFailure(location, err);
  }
}

/** Clients whose rollback failed: in an unknown state, destroyed on release instead of pooled. */
const broken = new WeakSet<PoolClient>();

/** Runs `fn` in a transaction on `client`; rolls back on any throw (a failed rollback marks the client broken). */
export async function transactionOn<T>(client: PoolClient, location: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => broken.add(client));
    throw describeFailure(location, err);
  }
}

export function release(client: PoolClient): void {
  client.release(broken.has(client) ? new Error('the connection broke during a rollback') : undefined);
}

/** Runs `fn` with a pooled client, inside a transaction; rolls back on any throw. */
export async function inTransaction<T>(pool: Pool, location: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await connect(pool, location);
  try {
    return await transactionOn(client, location, fn);
  } finally {
    release(client);
  }
}

/**
 * One statement on any pooled client (autocommit). A `name` makes it a prepared statement on each
 * connection: the hot paths (claims) skip parsing and planning after the first run.
 */
export async function query<R extends QueryResultRow>(pool: Pool, location: string, text: string, values: unknown[] = [], name?: string): Promise<R[]> {
  try {
    return (await pool.query<R>(name === undefined ? { text, values } : { name, text, values })).rows;
  } catch (err) {
    throw describeFailure(location, err);
  }
}
