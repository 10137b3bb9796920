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

/** Runs `fn` with a pooled client, inside a transaction; rolls back on any throw. */
export async function inTransaction<T>(pool: Pool, location: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw describeFailure(location, err);
  }
  let broken: unknown;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError;
    });
    throw describeFailure(location, err);
  } finally {
    // A client whose rollback failed is in an unknown state: destroy it rather than pool it.
    client.release(broken instanceof Error ? broken : undefined);
  }
}

/** One statement on any pooled client (autocommit). */
export async function query<R extends QueryResultRow>(pool: Pool, location: string, text: string, values: unknown[] = []): Promise<R[]> {
  try {
    return (await pool.query<R>(text, values)).rows;
  } catch (err) {
    throw describeFailure(location, err);
  }
}
