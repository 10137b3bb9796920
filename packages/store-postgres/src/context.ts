import type { PoolClient, QueryResultRow } from 'pg';

/** What an operation is about: its key and kind, e.g. `{ key: '.ratchet/campaign.json', kind: 'document' }`. */
export interface Subject {
  key: string;
  kind: 'document' | 'log' | 'queue' | 'lock';
}

/** What each store of the backend needs: who it is, and a migrated connection pool. */
export interface Context {
  readonly project: string;
  /** The redacted URL, for errors. */
  readonly location: string;
  readonly maxDocumentBytes: number;
  /**
   * `name`: prepare it once per connection (for statements run very often). `subject`: what the
   * statement is about (a key), for the message when it times out.
   */
  query<R extends QueryResultRow>(text: string, values?: unknown[], name?: string, subject?: Subject): Promise<R[]>;
  transaction<T>(fn: (client: PoolClient) => Promise<T>, subject?: Subject): Promise<T>;
}
