// What the conformance kit does not cover for queues on PostgreSQL: a claimer skips a row another
// transaction has locked instead of waiting (FOR UPDATE SKIP LOCKED), and the one-statement claim
// compares the best ready item with the best expired claim by priority.
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend, withClient } from './support/postgres.js';

afterAll(closeBackends);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describePg('queues on PostgreSQL', () => {
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
      // Nothing else is claimable while 'first' is locked: undefined at once, not a wait.
      expect(await backend.queues.claim('q', 'w', 60_000)).toBeUndefined();
      await client.query('ROLLBACK');
    });
    expect((await backend.queues.claim('q', 'w', 60_000))?.id).toBe('first');
  });

  it('an expired claim of higher priority is taken before ready items, and a ready one of higher priority before it', async () => {
    const backend = openBackend();
    await backend.queues.offer('q', [{ id: 'urgent', priority: -10 }]);
    await backend.queues.claim('q', 'crashed', 100);
    await backend.queues.offer('q', [{ id: 'later', priority: 0 }, { id: 'most-urgent', priority: -20 }]);
    await sleep(250);
    expect((await backend.queues.claim('q', 'w', 60_000))?.id).toBe('most-urgent');
    const recovered = await backend.queues.claim('q', 'w', 60_000);
    expect(recovered).toMatchObject({ id: 'urgent', attempt: 2, recovered: { owner: 'crashed', attempt: 1 } });
    expect((await backend.queues.claim('q', 'w', 60_000))?.id).toBe('later');
  });

  it('a large offer re-analyzes the queue table, so claims on a new campaign use its indexes at once', async () => {
    const backend = openBackend();
    const analyzed = async (): Promise<number> =>
      withClient(async (client) => Number((await client.query<{ n: string }>(`SELECT analyze_count AS n FROM pg_stat_user_tables WHERE relname = 'ratchet_queue_items'`)).rows[0]?.n ?? 0));
    const before = await analyzed();
    await backend.queues.offer('small', [{ id: 'a' }, { id: 'b' }]);
    expect(await analyzed()).toBe(before);
    await backend.queues.offer('big', Array.from({ length: 1000 }, (_, i) => ({ id: `t${i}`, priority: i })));
    // pg_stat counters are reported by the backend that ran ANALYZE when its transaction ends: poll.
    const deadline = Date.now() + 10_000;
    while ((await analyzed()) === before && Date.now() < deadline) await sleep(100);
    expect(await analyzed()).toBeGreaterThan(before);
    expect((await backend.queues.claim('big', 'w', 60_000))?.id).toBe('t0');
  });
});
