import { LeaseLostError, assertKey } from '@ratchet/store';
import type { Lease, LockStore } from '@ratchet/store';
import { randomUUID } from 'node:crypto';
import type { Context } from './context.js';

interface LockRow {
  owner: string;
  token: string;
  lease_until: Date;
}

const toLease = (name: string, row: LockRow): Lease => ({ name, owner: row.owner, token: row.token, leaseUntil: row.lease_until.toISOString() });

function checkLease(leaseMs: number): void {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new RangeError(`a lease must be a positive number of milliseconds, got ${leaseMs}`);
}

/**
 * Locks: one row per held lock with a fresh token per acquisition and a lease on the database
 * clock. Taking a free or expired lock is one upsert, so two takers can never both win.
 */
export function lockStore(ctx: Context): LockStore {
  const { project, location } = ctx;
  return {
    async tryAcquire(name, owner, leaseMs) {
      assertKey(location, name);
      checkLease(leaseMs);
      const rows = await ctx.query<LockRow>(
        `INSERT INTO ratchet_locks (project, name, owner, token, lease_until) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
         ON CONFLICT (project, name) DO UPDATE SET owner = EXCLUDED.owner, token = EXCLUDED.token, lease_until = EXCLUDED.lease_until
         WHERE ratchet_locks.lease_until <= now()
         RETURNING owner, token, lease_until`,
        [project, name, owner, randomUUID(), leaseMs],
      );
      return rows[0] ? toLease(name, rows[0]) : undefined;
    },

    async renew(lease, leaseMs) {
      assertKey(location, lease.name);
      checkLease(leaseMs);
      const rows = await ctx.query<LockRow>(
        `UPDATE ratchet_locks SET lease_until = now() + $4 * interval '1 millisecond'
         WHERE project = $1 AND name = $2 AND token = $3 AND lease_until > now()
         RETURNING owner, token, lease_until`,
        [project, lease.name, lease.token, leaseMs],
      );
      if (rows[0]) return toLease(lease.name, rows[0]);
      const holder = await this.holder(lease.name);
      throw new LeaseLostError(location, lease.name, holder ? `the lock is held by ${holder.owner} now` : `${lease.owner}'s lease on the lock has expired`, holder?.owner);
    },

    async release(lease) {
      assertKey(location, lease.name);
      const rows = await ctx.query('DELETE FROM ratchet_locks WHERE project = $1 AND name = $2 AND token = $3 RETURNING name', [project, lease.name, lease.token]);
      return rows.length > 0;
    },

    async holder(name) {
      assertKey(location, name);
      const rows = await ctx.query<LockRow>('SELECT owner, token, lease_until FROM ratchet_locks WHERE project = $1 AND name = $2 AND lease_until > now()', [project, name]);
      return rows[0] ? toLease(name, rows[0]) : undefined;
    },
  };
}
