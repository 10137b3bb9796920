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
