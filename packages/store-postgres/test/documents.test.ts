import { DocumentTooLargeError, InvalidKeyError, RevisionConflictError, UnsafeInputError, ValidationError } from '@ratchet/store';
import { afterAll, expect, it } from 'vitest';
import { closeBackends, describePg, freshProject, openBackend, pgUrl, runWorker, startWorker, withClient } from './support/postgres.js';

afterAll(closeBackends);

describePg('documents on PostgreSQL', () => {
  it('round-trips values exactly: key order, unicode, escapes, numbers, nesting', async () => {
    const backend = openBackend();
    const value = {
      z: 1,
      a: [1, -0.5, 1e21, 12345678901234, { y: null, x: true }],
      'ключ': 'значение 🎉',
      nul: 'a\u0000b',
      crlf: 'line\r\nline',
      bom: '\uFEFFtext',
      '': 'empty key',
      deep: { b: { a: { c: [[[]]] } } },
    };
    const stored = await backend.documents.update('.ratchet/campaign.json', () => value);
    expect(stored?.revision).toBe(1);
    const read = await backend.documents.get('.ratchet/campaign.json');
    expect(JSON.stringify(read?.value)).toBe(JSON.stringify(value));
    expect(Object.keys(read?.value ?? {})).toEqual(Object.keys(value));
    // Stored as text, not jsonb: the row holds exactly the JSON the caller's value serializes to.
    const rows = await withClient((c) => c.query<{ value: string }>('SELECT value FROM ratchet_documents WHERE key = $1', ['.ratchet/campaign.json']));
    expect(rows.rows.map((r) => r.value)).toContain(JSON.stringify(value));
  });

  it('counts revisions, and undefined from the updater writes nothing', async () => {
    const backend = openBackend();
    expect(await backend.documents.get('doc.json')).toBeUndefined();
    expect(await backend.documents.update('doc.json', () => undefined)).toBeUndefined();
    expect(await backend.documents.get('doc.json')).toBeUndefined();
    await backend.documents.update('doc.json', () => ({ n: 1 }));
    const second = await backend.documents.update('doc.json', (d) => ({ n: (d?.value.n as number) + 1 }));
    expect(second).toEqual({ key: 'doc.json', value: { n: 2 }, revision: 2 });
    expect(await backend.documents.update('doc.json', () => undefined)).toEqual(second);
    expect((await backend.documents.get('doc.json'))?.revision).toBe(2);
  });

  it('refuses a stale expected revision and writes nothing; 0 means "must not exist"', async () => {
    const backend = openBackend();
    await backend.documents.update('goals.json', () => ({ v: 1 }), { expectedRevision: 0 });
    await expect(backend.documents.update('goals.json', () => ({ v: 2 }), { expectedRevision: 0 })).rejects.toBeInstanceOf(RevisionConflictError);
    const err = await backend.documents.update('goals.json', () => ({ v: 2 }), { expectedRevision: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RevisionConflictError);
    expect(err).toMatchObject({ expected: 5, actual: 1, key: 'goals.json' });
    expect(await backend.documents.get('goals.json')).toEqual({ key: 'goals.json', value: { v: 1 }, revision: 1 });
  });

  it('exactly one of many concurrent writers with the same expected revision wins', async () => {
    const backend = openBackend({ pool: { max: 8 } });
    await backend.documents.update('race.json', () => ({ winner: null }));
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => backend.documents.update('race.json', () => ({ winner: i }), { expectedRevision: 1 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(7);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(RevisionConflictError);
    expect((await backend.documents.get('race.json'))?.revision).toBe(2);
  });

  it('loses no update among processes creating and incrementing the same missing document', async () => {
    const project = freshProject();
    await Promise.all(Array.from({ length: 4 }, () => runWorker([pgUrl, project, 'increment', 'counter.json', '25'])));
    const backend = openBackend({ project });
    expect(await backend.documents.get('counter.json')).toEqual({ key: 'counter.json', value: { n: 100 }, revision: 100 });
  });

  it('an updater that throws writes nothing', async () => {
    const backend = openBackend();
    await backend.documents.update('a.json', () => ({ n: 1 }));
    await expect(backend.documents.update('a.json', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await backend.documents.get('a.json')).toEqual({ key: 'a.json', value: { n: 1 }, revision: 1 });
  });

  it('refuses a document over the size limit before writing anything', async () => {
    const backend = openBackend({ maxDocumentBytes: 1000 });
    expect(backend.limits.maxDocumentBytes).toBe(1000);
    await backend.documents.update('big.json', () => ({ s: 'small' }));
    // 'é' is 2 UTF-8 bytes: 600 characters are 1200 bytes, over the limit though under 1000 characters.
    const err = await backend.documents.update('big.json', () => ({ s: 'é'.repeat(600) })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentTooLargeError);
    expect(err).toMatchObject({ maxBytes: 1000 });
    expect((err as DocumentTooLargeError).size).toBeGreaterThan(1200);
    expect(await backend.documents.get('big.json')).toEqual({ key: 'big.json', value: { s: 'small' }, revision: 1 });
    await expect(backend.documents.update('new-big.json', () => ({ s: 'x'.repeat(2000) }))).rejects.toBeInstanceOf(DocumentTooLargeError);
    expect(await backend.documents.list()).toEqual(['big.json']);
  });

  it('refuses values that are not plain JSON, naming the place', async () => {
    const backend = openBackend();
    await expect(backend.documents.update('x.json', () => ({ n: Number.NaN }))).rejects.toBeInstanceOf(ValidationError);
    await expect(backend.documents.update('x.json', () => ({ when: new Date() }) as never)).rejects.toThrow(/\/when/u);
    await expect(backend.documents.update('x.json', () => [1, 2] as never)).rejects.toThrow(/JSON object/u);
    await expect(backend.documents.update('x.json', () => JSON.parse('{"__proto__": {"polluted": true}}') as never)).rejects.toBeInstanceOf(UnsafeInputError);
    expect(await backend.documents.get('x.json')).toBeUndefined();
  });

  it('refuses hostile keys before any SQL runs', async () => {
    const backend = openBackend();
    for (const key of ['../escape.json', '/etc/passwd', 'a\\b', 'a\u0000b', 'a//b', '', 'a/./b']) {
      await expect(backend.documents.update(key, () => ({ x: 1 }))).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(backend.documents.get(key)).rejects.toBeInstanceOf(InvalidKeyError);
    }
    await expect(backend.documents.list('../')).rejects.toBeInstanceOf(InvalidKeyError);
  });

  it('lists by prefix in sorted order, deletes, and keeps projects apart', async () => {
    const project = freshProject();
    const a = openBackend({ project });
    const b = openBackend();
    for (const key of ['.ratchet/goals.json', '.ratchet/campaign.json', 'other/x.json']) await a.documents.update(key, () => ({ key }));
    await b.documents.update('.ratchet/goals.json', () => ({ mine: true }));
    expect(await a.documents.list('.ratchet/')).toEqual(['.ratchet/campaign.json', '.ratchet/goals.json']);
    expect(await a.documents.list()).toEqual(['.ratchet/campaign.json', '.ratchet/goals.json', 'other/x.json']);
    expect((await b.documents.get('.ratchet/goals.json'))?.value).toEqual({ mine: true });
    expect(await a.documents.delete('other/x.json')).toBe(true);
    expect(await a.documents.delete('other/x.json')).toBe(false);
    expect(await a.documents.list()).toEqual(['.ratchet/campaign.json', '.ratchet/goals.json']);
    expect(await b.documents.list()).toEqual(['.ratchet/goals.json']);
  });

  it('a writer killed with kill -9 inside its update leaves the document as it was and does not block others', async () => {
    const project = freshProject();
    const backend = openBackend({ project });
    await backend.documents.update('k.json', () => ({ n: 1 }));
    const child = await startWorker([pgUrl, project, 'hang', 'k.json'], 'inside');
    child.kill('SIGKILL');
    // The server rolls the dead client's transaction back when its socket closes; this update
    // waits on the row lock until then, then proceeds.
    const after = await backend.documents.update('k.json', (d) => ({ n: (d?.value.n as number) + 1 }));
    expect(after).toEqual({ key: 'k.json', value: { n: 2 }, revision: 2 });
  });
});
