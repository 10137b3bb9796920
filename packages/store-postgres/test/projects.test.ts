// One database holds many projects: every row is keyed by project, and no store of one project sees another's.
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend } from './support/postgres.js';

afterAll(closeBackends);

describePg('projects sharing one database', () => {
  it('documents, logs, queues and locks of one project are invisible to another', async () => {
    const a = openBackend({ project: freshProject('a') });
    const b = openBackend({ project: freshProject('b') });
    await a.documents.update('.ratchet/goals.json', () => ({ owner: 'a' }));
    await a.logs.append('.ratchet/activity.jsonl', [{ by: 'a' }]);
    await a.queues.offer('.ratchet/queues/campaign', [{ id: 't1' }]);
    const lease = await a.locks.tryAcquire('.ratchet/jixo/lock', 'a', 60_000);
    expect(lease).toBeDefined();

    expect(await b.documents.get('.ratchet/goals.json')).toBeUndefined();
    expect(await b.documents.list()).toEqual([]);
    expect(await b.logs.read('.ratchet/activity.jsonl')).toEqual([]);
    expect(await b.logs.append('.ratchet/activity.jsonl', [{ by: 'b' }])).toBe(1);
    expect(await b.queues.claim('.ratchet/queues/campaign', 'b', 60_000)).toBeUndefined();
    expect(await b.queues.list()).toEqual([]);
    expect(await b.locks.holder('.ratchet/jixo/lock')).toBeUndefined();
    expect(await b.locks.tryAcquire('.ratchet/jixo/lock', 'b', 60_000)).toBeDefined();

    expect((await a.documents.get('.ratchet/goals.json'))?.value).toEqual({ owner: 'a' });
    expect((await a.logs.read('.ratchet/activity.jsonl')).map((e) => e.record)).toEqual([{ by: 'a' }]);
    expect((await a.queues.claim('.ratchet/queues/campaign', 'a', 60_000))?.id).toBe('t1');
    expect((await a.locks.holder('.ratchet/jixo/lock'))?.owner).toBe('a');
  });
});
