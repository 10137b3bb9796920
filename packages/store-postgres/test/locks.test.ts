import { InvalidKeyError, LeaseLostError } from '@ratchet/store';
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend } from './support/postgres.js';

afterAll(closeBackends);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describePg('locks on PostgreSQL', () => {
  it('one holder at a time; released locks are free again', async () => {
    const backend = openBackend();
    const lease = await backend.locks.tryAcquire('.ratchet/jixo/task-1.lock', 'alice', 60_000);
    expect(lease).toMatchObject({ name: '.ratchet/jixo/task-1.lock', owner: 'alice' });
    expect(await backend.locks.tryAcquire('.ratchet/jixo/task-1.lock', 'bob', 60_000)).toBeUndefined();
    expect((await backend.locks.holder('.ratchet/jixo/task-1.lock'))?.owner).toBe('alice');
    expect(await backend.locks.release(lease!)).toBe(true);
    expect(await backend.locks.holder('.ratchet/jixo/task-1.lock')).toBeUndefined();
    expect(await backend.locks.tryAcquire('.ratchet/jixo/task-1.lock', 'bob', 60_000)).toMatchObject({ owner: 'bob' });
  });

  it('concurrent takers: exactly one wins', async () => {
    const backend = openBackend({ pool: { max: 8 } });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => backend.locks.tryAcquire('race', `o${i}`, 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('an expired lease is taken over; the old token can neither renew nor release it', async () => {
    const backend = openBackend();
    const old = await backend.locks.tryAcquire('l', 'dead-host', 150);
    expect(old).toBeDefined();
    await sleep(300);
    expect(await backend.locks.holder('l')).toBeUndefined();
    const fresh = await backend.locks.tryAcquire('l', 'alive', 60_000);
    expect(fresh?.token).not.toBe(old?.token);
    const err = await backend.locks.renew(old!, 60_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LeaseLostError);
    expect(err).toMatchObject({ holder: 'alive' });
    expect(await backend.locks.release(old!)).toBe(false);
    expect((await backend.locks.holder('l'))?.owner).toBe('alive');
  });

  it('renewal extends a live lease on the database clock', async () => {
    const backend = openBackend();
    const lease = await backend.locks.tryAcquire('r', 'me', 400);
    const renewed = await backend.locks.renew(lease!, 60_000);
    expect(Date.parse(renewed.leaseUntil)).toBeGreaterThan(Date.parse(lease!.leaseUntil) + 50_000);
    await sleep(600);
    expect((await backend.locks.holder('r'))?.token).toBe(lease!.token);
  });

  it('keeps projects apart and refuses bad names and leases', async () => {
    const a = openBackend({ project: freshProject() });
    const b = openBackend({ project: freshProject() });
    expect(await a.locks.tryAcquire('same', 'a', 60_000)).toBeDefined();
    expect(await b.locks.tryAcquire('same', 'b', 60_000)).toBeDefined();
    await expect(a.locks.tryAcquire('../x', 'a', 1000)).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(a.locks.tryAcquire('x', 'a', -1)).rejects.toBeInstanceOf(RangeError);
  });
});
