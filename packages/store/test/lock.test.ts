import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  LockCorruptError,
  LockLostError,
  LockNotHeldError,
  LockTimeoutError,
  NotFoundError,
  acquireLock,
  inspectLock,
  lockPathFor,
  releaseLockByToken,
  withLock,
  type LockHolder,
} from '../src/index.js';
import { deadPid, tempDir } from './support/children.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const token = (): string => randomBytes(16).toString('hex');

function plant(target: string, holder: Partial<LockHolder>, file = `${target}.lock`): LockHolder {
  const full = { pid: process.pid, host: hostname(), time: new Date(T0).toISOString(), token: token(), ...holder } as LockHolder;
  writeFileSync(file, JSON.stringify(full));
  return full;
}

function readLock(target: string): LockHolder {
  return JSON.parse(readFileSync(`${target}.lock`, 'utf8')) as LockHolder;
}

describe('acquireLock / release', () => {
  it('writes holder metadata (with the injected clock and extra) and removes it on release', async () => {
    const target = join(tempDir(), 'log.md');
    const lock = await acquireLock(target, { clock: () => T0, extra: { runner: 'r-7' } });
    expect(lock.lockPath).toBe(`${target}.lock`);
    expect(lockPathFor(target)).toBe(lock.lockPath);
    const onDisk = readLock(target);
    expect(onDisk).toEqual(lock.holder);
    expect(onDisk).toMatchObject({ pid: process.pid, host: hostname(), time: '2030-01-01T00:00:00.000Z', token: lock.token, runner: 'r-7' });
    expect(onDisk.token).toMatch(/^[0-9a-f]{32}$/u);
    await lock.verify();
    await lock.release();
    expect(existsSync(lock.lockPath)).toBe(false);
    await lock.release(); // idempotent
    expect(readdirSync(join(target, '..'))).toEqual([]);
  });

  it('excludes concurrent holders inside one process and hands over without losing anyone', async () => {
    const target = join(tempDir(), 'shared.json');
    let inside = 0;
    let maxInside = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        withLock(target, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await sleep(1);
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(order).toHaveLength(25);
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('withLock returns the result, and releases when the callback throws', async () => {
    const target = join(tempDir(), 'x.json');
    expect(await withLock(target, (lock) => lock.token.length)).toBe(32);
    await expect(
      withLock(target, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('times out on a live holder with a message naming the file and the holder', async () => {
    const target = join(tempDir(), 'busy.json');
    const holder = await acquireLock(target, { clock: () => T0, extra: { runner: 'r-1' } });
    const err = await acquireLock(target, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(err).toMatchObject({ code: 'lock-timeout', path: target, lockPath: `${target}.lock`, holder: holder.holder });
    expect((err as Error).message).toBe(
      `${target}: timed out after 80 ms waiting for the lock ${target}.lock, held by pid ${process.pid} on host ${hostname()} ` +
        `since 2030-01-01T00:00:00.000Z, lease until 2030-01-01T00:01:00.000Z (runner: "r-1"); if that holder is gone for good, release it by its token or delete the lock file`,
    );
    // timeoutMs 0 tries exactly once.
    await expect(acquireLock(target, { timeoutMs: 0 })).rejects.toBeInstanceOf(LockTimeoutError);
    await holder.release();
    await (await acquireLock(target, { timeoutMs: 0 })).release();
  });

  it('takes over a dead holder on this host at once', async () => {
    const target = join(tempDir(), 'crashed.json');
    plant(target, { pid: deadPid() });
    const started = performance.now();
    const lock = await acquireLock(target, { timeoutMs: 30_000 });
    // Far below the timeout (generous for a busy machine): the dead holder is seen on the first look.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(readLock(target).token).toBe(lock.token);
    await lock.release();
  });

  it.runIf(existsSync('/proc/self/stat'))('treats a reused pid (same pid, other start time) as dead', async () => {
    const target = join(tempDir(), 'reused.json');
    plant(target, { pid: process.pid, pidStart: '1' });
    expect((await inspectLock(target))?.stale).toBe(true);
    const lock = await acquireLock(target, { timeoutMs: 1_000 });
    await lock.release();
  });

  it('never presumes a holder on another host dead unless staleAfterMs says so', async () => {
    const target = join(tempDir(), 'remote.json');
    plant(target, { host: 'elsewhere.example', pid: 1 });
    await expect(acquireLock(target, { timeoutMs: 50, clock: () => T0 + 1e12 })).rejects.toBeInstanceOf(LockTimeoutError);
    await expect(acquireLock(target, { timeoutMs: 50, staleAfterMs: 60_000, clock: () => T0 + 59_000 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect((await inspectLock(target, { staleAfterMs: 60_000, clock: () => T0 + 59_000 }))?.stale).toBe(false);
    expect((await inspectLock(target, { staleAfterMs: 60_000, clock: () => T0 + 60_000 }))?.stale).toBe(true);
    const lock = await acquireLock(target, { timeoutMs: 50, staleAfterMs: 60_000, clock: () => T0 + 60_000 });
    expect(readLock(target).host).toBe(hostname());
    await lock.release();
  });

  it('keeps a detached (lease) lock after its pid is gone, until it expires', async () => {
    const target = join(tempDir(), 'jixo.md');
    const first = await acquireLock(target, { leaseMs: 60_000, clock: () => T0, extra: { runner: 'a' } });
    expect(first.holder).toMatchObject({ detached: true, expires: '2030-01-01T00:01:00.000Z' });
    // Not tied to a process: even a dead pid does not make it stale.
    const onDisk = readLock(target);
    writeFileSync(`${target}.lock`, JSON.stringify({ ...onDisk, pid: deadPid() }));
    await expect(acquireLock(target, { timeoutMs: 30, clock: () => T0 + 59_999 })).rejects.toBeInstanceOf(LockTimeoutError);
    const second = await acquireLock(target, { timeoutMs: 30, clock: () => T0 + 60_000 });
    await expect(first.release()).rejects.toBeInstanceOf(LockLostError);
    await second.release();
  });

  it('a detached lock without expiry waits for release by token', async () => {
    const target = join(tempDir(), 'forever.md');
    const lock = await acquireLock(target, { leaseMs: Infinity });
    expect(lock.holder.detached).toBe(true);
    expect(lock.holder.expires).toBeUndefined();
    await expect(acquireLock(target, { timeoutMs: 30, clock: () => T0 * 2 })).rejects.toBeInstanceOf(LockTimeoutError);
    await releaseLockByToken(target, lock.token);
    await (await acquireLock(target, { timeoutMs: 0 })).release();
  });

  it('breaks the guard of a breaker that died inside it', async () => {
    const target = join(tempDir(), 'guarded.json');
    const stale = plant(target, { pid: deadPid() });
    plant(target, { pid: deadPid() }, `${target}.lock.break-${stale.token}`);
    const lock = await acquireLock(target, { timeoutMs: 5_000 });
    expect(readLock(target).token).toBe(lock.token);
    await lock.release();
    expect(readdirSync(join(target, '..')).filter((n) => n.includes('break'))).toEqual([]);
  });

  it('waits while a live process is breaking the same stale lock', async () => {
    const target = join(tempDir(), 'breaking.json');
    const stale = plant(target, { pid: deadPid() });
    const guard = `${target}.lock.break-${stale.token}`;
    plant(target, { pid: process.pid }, guard);
    await expect(acquireLock(target, { timeoutMs: 60 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect(readLock(target).token).toBe(stale.token);
  });

  it('reports a lost lock on release and verify', async () => {
    const target = join(tempDir(), 'stolen.json');
    const lock = await acquireLock(target);
    const thief = plant(target, { pid: process.pid, extra: 1 });
    await expect(lock.verify()).rejects.toBeInstanceOf(LockLostError);
    const err = await lock.release().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockLostError);
    expect(err).toMatchObject({ code: 'lock-lost', holder: thief });
    expect(readLock(target).token).toBe(thief.token); // the thief's lock is left alone
    await releaseLockByToken(target, thief.token);
    // The in-process queue was freed despite the error.
    await (await acquireLock(target, { timeoutMs: 100 })).release();
  });

  it('withLock surfaces a lost lock', async () => {
    const target = join(tempDir(), 'stolen2.json');
    await expect(
      withLock(target, () => {
        plant(target, {});
      }),
    ).rejects.toBeInstanceOf(LockLostError);
  });
});

describe('releaseLockByToken / inspectLock', () => {
  it('refuses a release by a non-holder and leaves the lock in place', async () => {
    const target = join(tempDir(), 'held.json');
    const lock = await acquireLock(target);
    const before = readFileSync(`${target}.lock`, 'utf8');
    for (const wrong of [token(), '../../etc/passwd', '']) {
      const err = await releaseLockByToken(target, wrong).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockNotHeldError);
      expect((err as Error).message).toContain(`refused to release the lock ${target}.lock: it is held by pid ${process.pid}`);
    }
    expect(readFileSync(`${target}.lock`, 'utf8')).toBe(before);
    await lock.release();
    await expect(releaseLockByToken(target, lock.token)).rejects.toMatchObject({ code: 'lock-not-held', reason: expect.stringContaining('not locked') as unknown });
  });

  it('releases by token and frees a handle of the same process', async () => {
    const target = join(tempDir(), 'token.json');
    const lock = await acquireLock(target);
    await releaseLockByToken(target, lock.token);
    expect(existsSync(`${target}.lock`)).toBe(false);
    await (await acquireLock(target, { timeoutMs: 100 })).release();
  });

  it('describes the holder and its staleness', async () => {
    const target = join(tempDir(), 'inspect.json');
    expect(await inspectLock(target)).toBeUndefined();
    const dead = plant(target, { pid: deadPid(), runner: 'x' });
    expect(await inspectLock(target)).toEqual({ lockPath: `${target}.lock`, holder: dead, stale: true });
    plant(target, { pid: process.pid });
    expect((await inspectLock(target))?.stale).toBe(false);
  });

  it('refuses a corrupt lock file instead of breaking it', async () => {
    const target = join(tempDir(), 'corrupt.json');
    writeFileSync(`${target}.lock`, '{"pid": "nope"}');
    await expect(acquireLock(target, { timeoutMs: 5_000 })).rejects.toBeInstanceOf(LockCorruptError);
    await expect(inspectLock(target)).rejects.toMatchObject({ code: 'lock-corrupt', message: expect.stringContaining('"pid" must be a positive integer') as unknown });
    writeFileSync(`${target}.lock`, '{"__proto__": {}}');
    await expect(acquireLock(target)).rejects.toBeInstanceOf(LockCorruptError);
    expect(readFileSync(`${target}.lock`, 'utf8')).toBe('{"__proto__": {}}');
  });

  it('refuses a missing directory clearly, and creates it when asked', async () => {
    const dir = tempDir();
    const target = join(dir, 'a', 'b.json');
    const err = await acquireLock(target).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(`${target}: cannot lock: the directory ${join(dir, 'a')} does not exist`);
    await (await acquireLock(target, { createParentDirs: true })).release();
  });

  it('rejects bad options as programming errors', async () => {
    const target = join(tempDir(), 'opts.json');
    await expect(acquireLock(target, { extra: { token: 'mine' } })).rejects.toBeInstanceOf(TypeError);
    await expect(acquireLock(target, { timeoutMs: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(acquireLock(target, { leaseMs: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});
