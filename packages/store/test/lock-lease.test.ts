/**
 * Leases on process-bound locks: a holder on another host (or in another PID namespace) cannot be
 * probed, so its lock records `leaseUntil`, renewed while held; once the lease has expired any
 * process breaks the lock, whatever its host. Locks written by older versions (no leaseUntil) keep
 * the old rules.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LockTimeoutError, acquireLock, describeHolder, inspectLock, openDocument, defineDocument, type LockHolder } from '../src/index.js';
import { startWorker, killChild, tempDir } from './support/children.js';

const readLock = (target: string): LockHolder => JSON.parse(readFileSync(`${target}.lock`, 'utf8')) as LockHolder;

/** A holder on another host, alive as far as anyone here can tell (pid 1 exists everywhere). */
function foreignHolder(target: string, leaseUntil: number): LockHolder {
  const holder: LockHolder = { pid: 1, host: 'builder-7.other.example', time: new Date(Date.now() - 3_600_000).toISOString(), token: randomBytes(16).toString('hex'), leaseUntil: new Date(leaseUntil).toISOString(), runner: 'r-remote' };
  writeFileSync(`${target}.lock`, `${JSON.stringify(holder, null, 2)}\n`);
  return holder;
}

describe('process-bound lock leases', () => {
  it('a foreign-host holder whose lease expired is recovered at once', async () => {
    const target = join(tempDir(), 'campaign.json');
    foreignHolder(target, Date.now() - 1);
    expect((await inspectLock(target))?.stale).toBe(true);
    const started = performance.now();
    const lock = await acquireLock(target, { timeoutMs: 30_000 });
    // Far below the 30 s it would wait if the holder were not seen as gone (generous for a busy machine).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(readLock(target)).toMatchObject({ token: lock.token, host: hostname(), pid: process.pid });
    await lock.release();
  });

  it('a foreign-host holder with an unexpired lease is waited for, and the timeout names its lease', async () => {
    const target = join(tempDir(), 'campaign.json');
    const until = Date.now() + 60_000;
    foreignHolder(target, until);
    expect((await inspectLock(target))?.stale).toBe(false);
    const err = await acquireLock(target, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as Error).message).toContain(`on host builder-7.other.example since`);
    expect((err as Error).message).toContain(`lease until ${new Date(until).toISOString()}`);
  });

  it('a document update waiting on a foreign holder proceeds once its lease runs out', async () => {
    const target = join(tempDir(), 'counter.json');
    const until = Date.now() + 400;
    foreignHolder(target, until);
    const doc = openDocument(target, defineDocument({ schema: { safeParse: (v: unknown) => ({ success: true as const, data: v as { n: number } }) }, version: 1, initial: { n: 0 } }));
    await doc.update((d) => void (d.n += 1));
    // It went ahead only once the lease had run out (however long the set-up above took).
    expect(Date.now()).toBeGreaterThanOrEqual(until);
    expect(await doc.read()).toEqual({ n: 1 });
  });

  it('records leaseUntil and renews it while held, so a live holder is never broken', async () => {
    const target = join(tempDir(), 'held.json');
    // A lease long enough that a renewal (every third of one) is never late on a busy machine.
    const lock = await acquireLock(target, { processLeaseMs: 1500 });
    const first = readLock(target).leaseUntil;
    expect(Date.parse(first ?? '') - Date.now()).toBeGreaterThan(100);
    await sleep(2500); // over a lease and a half: without renewal the lock would be expired
    const renewed = readLock(target);
    expect(renewed.token).toBe(lock.token);
    expect(Date.parse(renewed.leaseUntil ?? '')).toBeGreaterThan(Date.parse(first ?? ''));
    expect((await inspectLock(target))?.stale).toBe(false);
    await expect(acquireLock(target, { timeoutMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
    await lock.verify();
    await lock.release();
  });

  it('a holder whose lease expired without renewal (a frozen process) loses the lock even though its pid lives', async () => {
    const target = join(tempDir(), 'frozen.json');
    // This very process as the holder (pid alive, same host), but its lease ran out: it stopped renewing.
    writeFileSync(`${target}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), time: new Date(Date.now() - 120_000).toISOString(), token: randomBytes(16).toString('hex'), leaseUntil: new Date(Date.now() - 60_000).toISOString() }));
    expect((await inspectLock(target))?.stale).toBe(true);
    const lock = await acquireLock(target, { timeoutMs: 1_000 });
    expect(readLock(target).token).toBe(lock.token);
    await lock.release();
  });

  it('processLeaseMs: Infinity records no lease (liveness by pid only, as before)', async () => {
    const target = join(tempDir(), 'plain.json');
    const lock = await acquireLock(target, { processLeaseMs: Infinity });
    expect(readLock(target).leaseUntil).toBeUndefined();
    expect(describeHolder(readLock(target))).not.toContain('lease');
    await lock.release();
    await expect(acquireLock(target, { processLeaseMs: 0 })).rejects.toBeInstanceOf(RangeError);
  });

  it('a real process holding a lock keeps its lease fresh; killed, its lock is recovered', async () => {
    const target = join(tempDir(), 'jixo.md');
    const holder = startWorker({ mode: 'hold', file: target, extra: { runner: 'r-1' }, exitAfterLocking: false });
    try {
      await holder.waitFor((l) => l.startsWith('locked '));
      expect(readLock(target).leaseUntil).toMatch(/^\d{4}-/u);
      await expect(acquireLock(target, { timeoutMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
    } finally {
      await killChild(holder);
    }
    await (await acquireLock(target, { timeoutMs: 5_000 })).release();
  }, 30_000);
});
