import type { PoolClient, QueryResultRow } from 'pg';

/** What each store of the backend needs: who it is, and a migrated connection pool. */
export interface Context {
  readonly project: string;
  /** The redacted URL, for errors. */
  readonly location: string;
  readonly maxDocumentBytes: number;
  /** `name`: prepare it once per connection (for statements run very often). */
  query<R extends QueryResultRow>(text: string, values?: unknown[], name?: string): Promise<R[]>;
  transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T>;
}
