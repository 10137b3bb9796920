import { InvalidKeyError, LeaseLostError } from '@ratchet/store';
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend, pgUrl, runWorker, withClient } from './support/postgres.js';

afterAll(closeBackends);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describePg('queues on PostgreSQL', () => {
  it('offers idempotently and claims by priority, then offer order', async () => {
    const backend = openBackend();
    expect(await backend.queues.offer('campaign', [{ id: 'c' }, { id: 'a', priority: 5 }, { id: 'b' }, { id: 'urgent', priority: -1 }])).toBe(4);
    expect(await backend.queues.offer('campaign', [{ id: 'a' }, { id: 'b' }, { id: 'd' }])).toBe(1);
    const order: string[] = [];
    for (let c = await backend.queues.claim('campaign', 'w', 60_000); c; c = await backend.queues.claim('campaign', 'w', 60_000)) order.push(c.id);
    expect(order).toEqual(['urgent', 'c', 'b', 'd', 'a']);
    // Re-offering claimed items leaves them claimed.
    expect(await backend.queues.offer('campaign', [{ id: 'c' }])).toBe(0);
    expect((await backend.queues.items('campaign')).every((i) => i.state === 'claimed')).toBe(true);
  });

  it('every item is claimed exactly once by concurrent claimer processes', async () => {
    const project = freshProject();
    const backend = openBackend({ project });
    const ids = Array.from({ length: 200 }, (_, i) => `t${i}`);
    await backend.queues.offer('q', ids.map((id) => ({ id })));
    const claimed = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((owner) => runWorker<string[]>([pgUrl, project, 'claim', 'q', owner])));
    const all = claimed.flat();
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    const items = await backend.queues.items('q');
    expect(items.every((i) => i.state === 'done' && i.attempts === 1)).toBe(true);
  });

  it('a claimer never waits on a row another transaction holds: it takes the next item', async () => {
    const project = freshProject();
    const backend = openBackend({ project });
    await backend.queues.offer('q', [{ id: 'first' }, { id: 'second' }]);
    await withClient(async (client) => {
      await client.query('BEGIN');
      await client.query(`SELECT id FROM ratchet_queue_items WHERE project = $1 AND id = 'first' FOR UPDATE`, [project]);
      const started = Date.now();
      const claim = await backend.queues.claim('q', 'w', 60_000);
      expect(claim?.id).toBe('second');
      expect(Date.now() - started).toBeLessThan(5_000);
      await client.query('ROLLBACK');
    });
    expect((await backend.queues.claim('q', 'w', 60_000))?.id).toBe('first');
  });

  it('an expired lease makes the item claimable again and records the lost attempt', async () => {
    const backend = openBackend();
    await backend.queues.offer('q', [{ id: 'task' }]);
    const first = await backend.queues.claim('q', 'crashed-builder', 150);
    expect(first).toMatchObject({ id: 'task', owner: 'crashed-builder', attempt: 1 });
    expect(await backend.queues.claim('q', 'other', 60_000)).toBeUndefined();
    await sleep(300);
    expect((await backend.queues.items('q'))[0]).toMatchObject({ state: 'claimed', owner: 'crashed-builder', expired: true });
    const second = await backend.queues.claim('q', 'other', 60_000);
    expect(second).toMatchObject({ id: 'task', owner: 'other', attempt: 2, recovered: { id: 'task', owner: 'crashed-builder', attempt: 1, leaseUntil: first!.leaseUntil } });
    expect(Date.parse(second!.recovered!.recoveredAt)).toBeGreaterThanOrEqual(Date.parse(first!.leaseUntil));
    expect(await backend.queues.lostAttempts('q')).toEqual([second!.recovered]);
    // The crashed builder comes back: its lease is gone.
    await expect(backend.queues.heartbeat('q', 'task', 'crashed-builder', 60_000)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(backend.queues.finish('q', 'task', 'crashed-builder', 'done')).rejects.toMatchObject({ holder: 'other' });
    await backend.queues.finish('q', 'task', 'other', 'done');
    expect((await backend.queues.items('q'))[0]).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('heartbeat extends a live claim; finish "ready" gives it back', async () => {
    const backend = openBackend();
    await backend.queues.offer('q', [{ id: 'x' }]);
    const claim = await backend.queues.claim('q', 'me', 400);
    const beat = await backend.queues.heartbeat('q', 'x', 'me', 60_000);
    expect(Date.parse(beat.leaseUntil)).toBeGreaterThan(Date.parse(claim!.leaseUntil) + 50_000);
    await sleep(600);
    expect(await backend.queues.claim('q', 'thief', 60_000)).toBeUndefined();
    await expect(backend.queues.heartbeat('q', 'x', 'thief', 1000)).rejects.toBeInstanceOf(LeaseLostError);
    await backend.queues.finish('q', 'x', 'me', 'ready');
    expect((await backend.queues.items('q'))[0]).toEqual({ id: 'x', state: 'ready', priority: 0, attempts: 1 });
    expect(await backend.queues.claim('q', 'next', 60_000)).toMatchObject({ id: 'x', attempt: 2 });
    expect(await backend.queues.lostAttempts('q')).toEqual([]);
    await expect(backend.queues.finish('q', 'missing', 'me', 'done')).rejects.toBeInstanceOf(LeaseLostError);
  });

  it('lists queues per project and refuses bad input', async () => {
    const backend = openBackend();
    await backend.queues.offer('.ratchet/queues/b', [{ id: '1' }]);
    await backend.queues.offer('.ratchet/queues/a', [{ id: '1' }]);
    await openBackend().queues.offer('.ratchet/queues/zz', [{ id: '1' }]);
    expect(await backend.queues.list('.ratchet/queues/')).toEqual(['.ratchet/queues/a', '.ratchet/queues/b']);
    await expect(backend.queues.offer('../q', [{ id: '1' }])).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(backend.queues.offer('q', [{ id: '1', priority: Number.NaN }])).rejects.toBeInstanceOf(RangeError);
    await expect(backend.queues.claim('q', 'w', 0)).rejects.toBeInstanceOf(RangeError);
    expect(await backend.queues.list()).toEqual(['.ratchet/queues/a', '.ratchet/queues/b']);
  });
});
