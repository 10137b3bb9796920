/**
 * The storage port: every operation Ratchet's packages need from persistent shared state, as one
 * interface with two implementations, the file backend (embedded, the default, no setup) and
 * `@ratchet/store-postgres` (fleets: many machines, one database). Packages name state by a *key*
 * (the project-relative path the file backend stores it at, `/`-separated, e.g.
 * `.ratchet/campaign.json`), never by an absolute path, so the same code runs on either backend.
 *
 * Four kinds of state, each with its own guarantees:
 * - documents: versioned JSON objects with a revision counter; locked read-modify-write with an
 *   optional expected-revision check (optimistic locking).
 * - logs: append-only sequences of JSON records (the activity log, JIXO commits, audit trails).
 * - queues: items offered once, claimed by one owner at a time under a time-limited lease. An
 *   expired lease makes the item claimable again and records the lost attempt.
 * - locks: named mutual exclusion with a lease, so a lock held by a dead process on any host is
 *   recovered once its lease expires.
 *
 * Time for leases is the backend's clock (PostgreSQL's `now()`, the file backend's host clock), so
 * machines with skewed clocks still agree on whether a lease has expired.
 *
 * The conformance kit (`@ratchet/store/conformance`) states these semantics as tests; every backend,
 * including third-party ones, must pass it.
 */

/** A JSON value as stored: plain objects, arrays, strings, finite numbers, booleans and null. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A document as stored: its value and its revision (1 for the first write, +1 per write). */
export interface StoredDocument {
  readonly key: string;
  readonly value: JsonObject;
  readonly revision: number;
}

export interface UpdateDocumentOptions {
  /**
   * Optimistic locking: the revision the caller read. When the stored revision differs (0 = "must not
   * exist yet"), the update throws `RevisionConflictError` and writes nothing. Among concurrent
   * writers that all pass the same expected revision, exactly one succeeds.
   */
  expectedRevision?: number;
}

/**
 * What an update function returns: the new value, or `undefined` to leave the document unchanged
 * (no write, no new revision). Throwing aborts the update and writes nothing.
 */
export type DocumentUpdater = (current: StoredDocument | undefined) => JsonObject | undefined | Promise<JsonObject | undefined>;

export interface DocumentStore {
  /** The document, or undefined when it does not exist. */
  get(key: string): Promise<StoredDocument | undefined>;
  /**
   * Locked read-modify-write: `fn` sees the current document (read inside the lock or transaction),
   * and its result is written atomically with revision + 1. Returns the document as stored (the
   * current one when `fn` returned undefined; undefined when it still does not exist).
   * A value larger than the backend's `limits.maxDocumentBytes` is refused before anything is written.
   */
  update(key: string, fn: DocumentUpdater, options?: UpdateDocumentOptions): Promise<StoredDocument | undefined>;
  /** Removes a document; false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Keys of existing documents starting with `prefix`, sorted. */
  list(prefix?: string): Promise<string[]>;
}

/** One record of a log with its position (1-based, gap-free, in append order). */
export interface LogEntry {
  readonly seq: number;
  readonly record: JsonValue;
}

export interface LogStore {
  /**
   * Appends records atomically (all or none) and returns the seq of the first one. Log keys end in
   * `.jsonl` (others are refused with `invalid-key`, on every backend).
   */
  append(key: string, records: readonly JsonValue[]): Promise<number>;
  /** Entries with seq > `after` (default 0), in order, at most `limit`. An unknown log is empty. */
  read(key: string, options?: { after?: number; limit?: number }): Promise<LogEntry[]>;
  /** Keys of non-empty logs starting with `prefix`, sorted. */
  list(prefix?: string): Promise<string[]>;
}

export type QueueItemState = 'ready' | 'claimed' | 'done';

/** An item of a queue as the backend sees it now (an expired claim still reads as `claimed` with `expired: true`). */
export interface QueueItem {
  readonly id: string;
  readonly state: QueueItemState;
  /** Lower first; ties go in offer order. */
  readonly priority: number;
  /** How many times the item has been claimed. */
  readonly attempts: number;
  readonly owner?: string | undefined;
  /** ISO-8601; present while claimed. */
  readonly leaseUntil?: string | undefined;
  readonly expired?: boolean | undefined;
}

/** A claim that ended because its lease expired before the owner finished or renewed it. */
export interface LostAttempt {
  readonly id: string;
  readonly owner: string;
  readonly attempt: number;
  /** When the lease had expired (ISO-8601). */
  readonly leaseUntil: string;
  /** When another claim took the item over (ISO-8601). */
  readonly recoveredAt: string;
}

export interface Claim {
  readonly id: string;
  readonly owner: string;
  /** 1 for the first claim of this item. */
  readonly attempt: number;
  readonly leaseUntil: string;
  /** Set when this claim took the item over from an expired lease. */
  readonly recovered?: LostAttempt | undefined;
}

export type ClaimOutcome = 'done' | 'ready';

export interface QueueStore {
  /**
   * Adds items as `ready`. Items already in the queue (in any state) are left as they are, so offering
   * the same ready set again is harmless. Returns how many were new.
   */
  offer(queue: string, items: readonly { id: string; priority?: number }[]): Promise<number>;
  /**
   * Claims the first item (by priority, then offer order) that is ready or whose lease has expired,
   * for `owner` with a lease of `leaseMs`. Concurrent claimers never get the same item; a claimer
   * never waits behind another claimer's row. Undefined when nothing is claimable.
   */
  claim(queue: string, owner: string, leaseMs: number): Promise<Claim | undefined>;
  /** Extends the lease of `owner`'s live claim by `leaseMs` from now; throws `LeaseLostError` otherwise. */
  heartbeat(queue: string, id: string, owner: string, leaseMs: number): Promise<Claim>;
  /**
   * Ends `owner`'s live claim: `done` for good, `ready` to give the item back. Throws
   * `LeaseLostError` when the claim is not (or no longer) `owner`'s.
   */
  finish(queue: string, id: string, owner: string, outcome: ClaimOutcome): Promise<void>;
  /** Every item, in claim order. */
  items(queue: string): Promise<QueueItem[]>;
  /** Every lost attempt recorded for the queue, oldest first. */
  lostAttempts(queue: string): Promise<LostAttempt[]>;
  /** Keys of queues with items, sorted. */
  list(prefix?: string): Promise<string[]>;
}

export interface Lease {
  readonly name: string;
  readonly owner: string;
  /** Changes on every acquisition: a release or renewal with an old token is refused. */
  readonly token: string;
  readonly leaseUntil: string;
}

export interface LockStore {
  /** Takes the lock if it is free or its lease has expired; undefined when someone else holds it. */
  tryAcquire(name: string, owner: string, leaseMs: number): Promise<Lease | undefined>;
  /** Extends a held lease; throws `LeaseLostError` when the token no longer holds the lock. */
  renew(lease: Lease, leaseMs: number): Promise<Lease>;
  /** Releases a held lease; false (no error) when it had already expired and been taken or released. */
  release(lease: Lease): Promise<boolean>;
  /** The current holder, if any and unexpired. */
  holder(name: string): Promise<Lease | undefined>;
}

export interface BackendLimits {
  /** The largest serialized document (UTF-8 bytes of its JSON) the backend accepts. */
  readonly maxDocumentBytes: number;
}

export interface StorageBackend {
  /** `file` or `postgres`, or a third-party adapter's name. */
  readonly kind: string;
  /** Where the state lives, safe to print: a directory, or a URL without its password. */
  readonly location: string;
  readonly limits: BackendLimits;
  readonly documents: DocumentStore;
  readonly logs: LogStore;
  readonly queues: QueueStore;
  readonly locks: LockStore;
  /** Releases connections and handles; the backend is unusable afterwards. */
  close(): Promise<void>;
}
