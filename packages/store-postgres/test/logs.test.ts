import { InvalidKeyError, ValidationError } from '@ratchet/store';
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend, pgUrl, runWorker } from './support/postgres.js';

afterAll(closeBackends);

describePg('logs on PostgreSQL', () => {
  it('appends atomically with 1-based seqs and reads after/limit', async () => {
    const backend = openBackend();
    expect(await backend.logs.read('.ratchet/activity.jsonl')).toEqual([]);
    expect(await backend.logs.append('.ratchet/activity.jsonl', [{ a: 1 }, 'two', [3]])).toBe(1);
    expect(await backend.logs.append('.ratchet/activity.jsonl', [null])).toBe(4);
    expect(await backend.logs.read('.ratchet/activity.jsonl')).toEqual([
      { seq: 1, record: { a: 1 } },
      { seq: 2, record: 'two' },
      { seq: 3, record: [3] },
      { seq: 4, record: null },
    ]);
    expect(await backend.logs.read('.ratchet/activity.jsonl', { after: 1, limit: 2 })).toEqual([
      { seq: 2, record: 'two' },
      { seq: 3, record: [3] },
    ]);
  });

  it('refuses a batch with one bad record, writing none of it', async () => {
    const backend = openBackend();
    await expect(backend.logs.append('l.jsonl', [{ ok: 1 }, { bad: Number.POSITIVE_INFINITY }])).rejects.toBeInstanceOf(ValidationError);
    await expect(backend.logs.append('../l.jsonl', [{ ok: 1 }])).rejects.toBeInstanceOf(InvalidKeyError);
    expect(await backend.logs.read('l.jsonl')).toEqual([]);
    expect(await backend.logs.list()).toEqual([]);
    expect(await backend.logs.append('l.jsonl', [{ ok: 1 }])).toBe(1);
  });

  it('keeps seqs gap-free and unique under concurrent appenders in separate processes', async () => {
    const project = freshProject();
    const perWorker = await Promise.all(['a', 'b', 'c', 'd'].map((tag) => runWorker<number[]>([pgUrl, project, 'append', 'shared.jsonl', '30', tag])));
    const all = perWorker.flat().sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    const entries = await openBackend({ project }).logs.read('shared.jsonl');
    expect(entries.map((e) => e.seq)).toEqual(all);
    // Each worker's own records stay in its append order.
    for (const tag of ['a', 'b', 'c', 'd']) {
      const mine = entries.filter((e) => (e.record as { tag: string }).tag === tag).map((e) => (e.record as { i: number }).i);
      expect(mine).toEqual(Array.from({ length: 30 }, (_, i) => i));
    }
  });

  it('lists non-empty logs by prefix, per project', async () => {
    const backend = openBackend();
    const other = openBackend();
    await backend.logs.append('.ratchet/jixo/b.jsonl', [1]);
    await backend.logs.append('.ratchet/jixo/a.jsonl', [1]);
    await backend.logs.append('activity.jsonl', [1]);
    await other.logs.append('.ratchet/jixo/z.jsonl', [1]);
    expect(await backend.logs.list('.ratchet/jixo/')).toEqual(['.ratchet/jixo/a.jsonl', '.ratchet/jixo/b.jsonl']);
    expect(await backend.logs.list()).toEqual(['.ratchet/jixo/a.jsonl', '.ratchet/jixo/b.jsonl', 'activity.jsonl']);
  });
});
