/**
 * Leased locks on the file backend: the lock named N is the detached lock file
 * `<root>/.ratchet/locks/N.lock` (the lock protocol of lock.ts, `expires` = the lease), holding the
 * owner beside the reserved keys. Expired leases are taken over by any process on any host.
 */
import { LeaseLostError, LockNotHeldError, LockTimeoutError, type LockHolder } from '../errors.js';
import { acquireLock, inspectLock, releaseLockByToken, renewLockLease } from '../lock.js';
import { assertKey } from '../port/keys.js';
import type { Lease, LockStore } from '../port/storage-port.js';
import { LOCKS_DIR, type FileContext } from './context.js';

export function fileLocks(ctx: FileContext, clock: () => number = Date.now): LockStore {
  const target = (name: string): string => {
    assertKey(ctx.location, name);
    return ctx.pathOf(`${LOCKS_DIR}/${name}`);
  };
  const leaseOf = (name: string, holder: LockHolder): Lease => ({
    name,
    owner: typeof holder.owner === 'string' ? holder.owner : '',
    token: holder.token,
    leaseUntil: holder.expires ?? '',
  });
  return {
    async tryAcquire(name, owner, leaseMs) {
      if (typeof owner !== 'string' || owner === '') throw new TypeError('tryAcquire: owner must be a non-empty string');
      checkLease(leaseMs);
      try {
        const handle = await acquireLock(target(name), { timeoutMs: 0, leaseMs, clock, extra: { owner }, createParentDirs: true });
        return leaseOf(name, handle.holder);
      } catch (err) {
        if (err instanceof LockTimeoutError) return undefined;
        throw err;
      }
    },
    async renew(lease, leaseMs) {
      checkLease(leaseMs);
      const path = target(lease.name);
      const lost = (holder: LockHolder | undefined): LeaseLostError =>
        new LeaseLostError(ctx.location, `${LOCKS_DIR}/${lease.name}`, `the lease (token ${lease.token}) no longer holds the lock`, typeof holder?.owner === 'string' ? holder.owner : undefined);
      // An expired lease is lost even before someone takes it over: renewing it would race that takeover.
      const info = await inspectLock(path, { clock });
      if (info === undefined || info.holder.token !== lease.token || info.stale) throw lost(info?.holder);
      const holder = await renewLockLease(path, lease.token, new Date(clock() + leaseMs).toISOString(), lost);
      return leaseOf(lease.name, holder);
    },
    async release(lease) {
      try {
        await releaseLockByToken(target(lease.name), lease.token);
        return true;
      } catch (err) {
        if (err instanceof LockNotHeldError) return false;
        throw err;
      }
    },
    async holder(name) {
      const info = await inspectLock(target(name), { clock });
      return info === undefined || info.stale ? undefined : leaseOf(name, info.holder);
    },
  };
}

function checkLease(leaseMs: number): void {
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs <= 0) throw new RangeError(`leaseMs must be a finite number > 0, got ${String(leaseMs)}`);
}
