import { LeaseLostError, assertKey, assertPrefix } from '@ratchet/store';
import type { Claim, LostAttempt, QueueItem, QueueItemState, QueueStore } from '@ratchet/store';
import type { Context } from './context.js';

interface ClaimRow {
  id: string;
  owner: string;
  attempts: number;
  lease_until: Date;
  prev_state: QueueItemState;
  prev_owner: string | null;
  prev_attempts: number;
  prev_lease_until: Date | null;
  recovered_at: Date;
}

/**
 * The claim, in ONE statement: pick the best ready item and the best expired claim (each with
 * `FOR UPDATE SKIP LOCKED`, so a claimer skips rows another claimer is taking instead of waiting on
 * them), keep the better of the two by priority then offer order, record the lost attempt if it was
 * an expired claim, and take it. Lease times come from the database clock (`now()`), never from
 * the caller's host. The loser of the two candidates is only locked until the statement ends.
 */
const CLAIM = `
WITH ready AS (
  SELECT id, priority, offer_seq, state, owner, attempts, lease_until FROM ratchet_queue_items
  WHERE project = $1 AND queue = $2 AND state = 'ready'
  ORDER BY priority, offer_seq LIMIT 1
  FOR UPDATE SKIP LOCKED
), expired AS (
  SELECT id, priority, offer_seq, state, owner, attempts, lease_until FROM ratchet_queue_items
  WHERE project = $1 AND queue = $2 AND state = 'claimed' AND lease_until <= now()
  ORDER BY priority, offer_seq LIMIT 1
  FOR UPDATE SKIP LOCKED
), pick AS (
  -- The locking CTEs return the row as locked (re-checked if it changed since the snapshot).
  SELECT * FROM (SELECT * FROM ready UNION ALL SELECT * FROM expired) c ORDER BY priority, offer_seq LIMIT 1
), lost AS (
  INSERT INTO ratchet_lost_attempts (project, queue, id, owner, attempt, lease_until, recovered_at)
  SELECT $1, $2, id, owner, attempts, lease_until, now() FROM pick WHERE state = 'claimed'
)
UPDATE ratchet_queue_items q
SET state = 'claimed', owner = $3, attempts = q.attempts + 1, lease_until = now() + $4 * interval '1 millisecond'
FROM pick
WHERE q.project = $1 AND q.queue = $2 AND q.id = pick.id
RETURNING q.id, q.owner, q.attempts, q.lease_until, pick.state AS prev_state, pick.owner AS prev_owner,
  pick.attempts AS prev_attempts, pick.lease_until AS prev_lease_until, now() AS recovered_at`;

const iso = (d: Date): string => d.toISOString();

/** Offers of this many new items re-analyze the queue table (see offer). */
const ANALYZE_AFTER_OFFER = 1000;

function checkLease(leaseMs: number): void {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new RangeError(`a lease must be a positive number of milliseconds, got ${leaseMs}`);
}

/**
 * Queues: one row per item with its state, owner and lease. Offers are idempotent per id; claims
 * are single statements (above); heartbeats and finishes only touch the caller's own live claim.
 */
export function queueStore(ctx: Context): QueueStore {
  const { project, location } = ctx;

  /** Why a heartbeat or finish of `id` by `owner` found no live claim of theirs. */
  async function leaseLost(queue: string, id: string, owner: string): Promise<LeaseLostError> {
    const rows = await ctx.query<{ state: QueueItemState; owner: string | null; live: boolean }>(
      'SELECT state, owner, lease_until > now() AS live FROM ratchet_queue_items WHERE project = $1 AND queue = $2 AND id = $3',
      [project, queue, id],
    );
    const item = rows[0];
    const key = `${queue}/${id}`;
    if (!item) return new LeaseLostError(location, key, `no item "${id}" in the queue`);
    if (item.state !== 'claimed') return new LeaseLostError(location, key, `"${id}" is ${item.state}, not claimed by ${owner}`);
    if (item.owner !== owner) return new LeaseLostError(location, key, `"${id}" is claimed by ${item.owner ?? 'nobody'}, not ${owner}`, item.owner ?? undefined);
    return new LeaseLostError(location, key, `${owner}'s lease on "${id}" has expired`);
  }

  return {
    async offer(queue, items) {
      assertKey(location, queue);
      if (items.length === 0) return 0;
      for (const item of items) {
        if (typeof item.id !== 'string' || item.id === '') throw new TypeError('queue items need a non-empty string id');
        if (item.priority !== undefined && !Number.isFinite(item.priority)) throw new RangeError(`item "${item.id}": priority must be a finite number`);
      }
      const rows = await ctx.query(
        `INSERT INTO ratchet_queue_items (project, queue, id, state, priority)
         SELECT $1, $2, t.id, 'ready', t.priority FROM unnest($3::text[], $4::float8[]) WITH ORDINALITY AS t(id, priority, ord)
         ORDER BY t.ord
         ON CONFLICT (project, queue, id) DO NOTHING
         RETURNING id`,
        [project, queue, items.map((i) => i.id), items.map((i) => i.priority ?? 0)],
      );
      // A large offer (a new campaign's tasks) changes the table faster than autovacuum re-analyzes
      // it: until then the planner, with stale statistics, sorts the whole queue for every claim
      // (5 ms a claim instead of 0.3 ms). Analyzing now costs tens of milliseconds once.
      if (rows.length >= ANALYZE_AFTER_OFFER) await ctx.query('ANALYZE ratchet_queue_items');
      return rows.length;
    },

    async claim(queue, owner, leaseMs) {
      assertKey(location, queue);
      checkLease(leaseMs);
      const row = (await ctx.query<ClaimRow>(CLAIM, [project, queue, owner, leaseMs], 'ratchet_claim', { key: queue, kind: 'queue' }))[0];
      if (!row) return undefined;
      const claim: Claim = { id: row.id, owner: row.owner, attempt: row.attempts, leaseUntil: iso(row.lease_until) };
      if (row.prev_state !== 'claimed') return claim;
      const recovered: LostAttempt = {
        id: row.id,
        owner: row.prev_owner ?? '',
        attempt: row.prev_attempts,
        leaseUntil: iso(row.prev_lease_until ?? row.recovered_at),
        recoveredAt: iso(row.recovered_at),
      };
      return { ...claim, recovered };
    },

    async heartbeat(queue, id, owner, leaseMs) {
      assertKey(location, queue);
      checkLease(leaseMs);
      const rows = await ctx.query<{ id: string; owner: string; attempts: number; lease_until: Date }>(
        `UPDATE ratchet_queue_items SET lease_until = now() + $5 * interval '1 millisecond'
         WHERE project = $1 AND queue = $2 AND id = $3 AND state = 'claimed' AND owner = $4 AND lease_until > now()
         RETURNING id, owner, attempts, lease_until`,
        [project, queue, id, owner, leaseMs],
      );
      const row = rows[0];
      if (!row) throw await leaseLost(queue, id, owner);
      return { id: row.id, owner: row.owner, attempt: row.attempts, leaseUntil: iso(row.lease_until) };
    },

    async finish(queue, id, owner, outcome) {
      assertKey(location, queue);
      if (outcome !== 'done' && outcome !== 'ready') throw new TypeError(`a claim finishes as "done" or "ready", not ${JSON.stringify(outcome)}`);
      // "done" keeps the owner (who finished it); "ready" gives the item back to nobody.
      const rows = await ctx.query(
        `UPDATE ratchet_queue_items SET state = $5, lease_until = NULL, owner = CASE WHEN $5 = 'done' THEN owner END
         WHERE project = $1 AND queue = $2 AND id = $3 AND state = 'claimed' AND owner = $4 AND lease_until > now()
         RETURNING id`,
        [project, queue, id, owner, outcome],
        'ratchet_finish',
      );
      if (rows.length === 0) throw await leaseLost(queue, id, owner);
    },

    async items(queue) {
      assertKey(location, queue);
      const rows = await ctx.query<{ id: string; state: QueueItemState; priority: number; attempts: number; owner: string | null; lease_until: Date | null; expired: boolean }>(
        `SELECT id, state, priority, attempts, owner, lease_until, (state = 'claimed' AND lease_until <= now()) AS expired
         FROM ratchet_queue_items WHERE project = $1 AND queue = $2 ORDER BY priority, offer_seq`,
        [project, queue],
      );
      return rows.map((r): QueueItem => ({
        id: r.id,
        state: r.state,
        priority: r.priority,
        attempts: r.attempts,
        ...(r.owner === null ? {} : { owner: r.owner }),
        ...(r.state === 'claimed' && r.lease_until ? { leaseUntil: iso(r.lease_until), expired: r.expired } : {}),
      }));
    },

    async lostAttempts(queue) {
      assertKey(location, queue);
      const rows = await ctx.query<{ id: string; owner: string; attempt: number; lease_until: Date; recovered_at: Date }>(
        'SELECT id, owner, attempt, lease_until, recovered_at FROM ratchet_lost_attempts WHERE project = $1 AND queue = $2 ORDER BY seq',
        [project, queue],
      );
      return rows.map((r) => ({ id: r.id, owner: r.owner, attempt: r.attempt, leaseUntil: iso(r.lease_until), recoveredAt: iso(r.recovered_at) }));
    },

    async list(prefix = '') {
      assertPrefix(location, prefix);
      const rows = await ctx.query<{ queue: string }>('SELECT DISTINCT queue FROM ratchet_queue_items WHERE project = $1 AND starts_with(queue, $2)', [project, prefix]);
      return rows.map((r) => r.queue).sort();
    },
  };
}
