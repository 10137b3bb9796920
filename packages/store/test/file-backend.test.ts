/**
 * The file backend's own promises (the conformance kit covers the port's semantics): existing state
 * files keep their format and keep working, revisions live in the digest record, logs are plain
 * JSON Lines, and everything stays inside the root.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidKeyError, OutsideRootError, TamperedError, createFileBackend, defineDocument, keyOf, sharedBackendOf, openDocument } from '../src/index.js';

const tempRoot = (): string => mkdtempSync(join(tmpdir(), 'store-file-backend-'));

describe('file backend: documents', () => {
  it('reads a file written by openDocument and writes it back in exactly the format openDocument writes', async () => {
    const root = tempRoot();
    mkdirSync(join(root, '.ratchet'));
    const definition = defineDocument({ schema: z.object({ n: z.number() }), version: 2, $schema: 'https://x/s.json', initial: { n: 0 } });
    const legacy = openDocument(join(root, '.ratchet', 'state.json'), definition);
    await legacy.update((d) => void (d.n = 1));
    await legacy.update((d) => void (d.n = 2));
    const backend = createFileBackend(root);
    const stored = await backend.documents.get('.ratchet/state.json');
    expect(stored).toEqual({ key: '.ratchet/state.json', value: { $schema: 'https://x/s.json', schemaVersion: 2, n: 2 }, revision: 2 });
    await backend.documents.update('.ratchet/state.json', (cur) => ({ ...cur?.value, n: 3 }));
    const text = readFileSync(join(root, '.ratchet', 'state.json'), 'utf8');
    expect(text).toBe('{\n  "$schema": "https://x/s.json",\n  "schemaVersion": 2,\n  "n": 3\n}\n');
    // openDocument still reads it (digest accepted), and its next write continues the revision count.
    expect(await legacy.read()).toEqual({ n: 3 });
    await legacy.update((d) => void (d.n = 4));
    expect((await backend.documents.get('.ratchet/state.json'))?.revision).toBe(4);
    const record = JSON.parse(readFileSync(join(root, '.ratchet', 'state.json.digest'), 'utf8')) as { version: number; revision: number };
    expect(record).toMatchObject({ version: 1, revision: 4 });
  });

  it('a file without a digest record (older Ratchet, hand-created) reads as revision 1', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'old.json'), '{ "schemaVersion": 1, "a": 1 }\n');
    const backend = createFileBackend(root);
    expect(await backend.documents.get('old.json')).toEqual({ key: 'old.json', value: { schemaVersion: 1, a: 1 }, revision: 1 });
    const next = await backend.documents.update('old.json', (cur) => ({ ...cur?.value, a: 2 }), { expectedRevision: 1 });
    expect(next?.revision).toBe(2);
  });

  it('a hand edit is refused on get and update, and nothing is written', async () => {
    const root = tempRoot();
    const backend = createFileBackend(root);
    await backend.documents.update('s.json', () => ({ phase: 'PLANNING' }));
    writeFileSync(join(root, 's.json'), '{\n  "phase": "EXECUTING"\n}\n');
    await expect(backend.documents.get('s.json')).rejects.toBeInstanceOf(TamperedError);
    await expect(backend.documents.update('s.json', () => ({ phase: 'DONE' }))).rejects.toBeInstanceOf(TamperedError);
    expect(readFileSync(join(root, 's.json'), 'utf8')).toContain('EXECUTING');
  });

  it('delete removes the file and its sidecars; list shows only documents', async () => {
    const root = tempRoot();
    const backend = createFileBackend(root);
    await backend.documents.update('.ratchet/a.json', () => ({ a: 1 }));
    await backend.documents.update('.ratchet/b.json', () => ({ b: 1 }));
    await backend.logs.append('.ratchet/log.jsonl', [{ x: 1 }]);
    await backend.queues.offer('q', [{ id: 't1' }]);
    expect(await backend.documents.list('.ratchet/')).toEqual(['.ratchet/a.json', '.ratchet/b.json']);
    expect(await backend.documents.delete('.ratchet/a.json')).toBe(true);
    expect(await backend.documents.delete('.ratchet/a.json')).toBe(false);
    expect(readdirSync(join(root, '.ratchet')).filter((n) => n.startsWith('a.json'))).toEqual([]);
    expect(await backend.documents.list()).toEqual(['.ratchet/b.json']);
  });

  it("logs list only .jsonl files: a project's own one-line JSON files are not taken for logs", async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'plan.json'), '{"steps":[]}\n');
    writeFileSync(join(root, 'package.json'), '{"name":"x"}\n');
    const backend = createFileBackend(root);
    await backend.logs.append('.ratchet/activity.jsonl', [{ x: 1 }]);
    expect(await backend.logs.list()).toEqual(['.ratchet/activity.jsonl']);
  });

  it('keys are confined to the root: invalid keys and symbolic links out are refused, nothing written', async () => {
    const root = tempRoot();
    const outside = tempRoot();
    symlinkSync(outside, join(root, 'out'));
    const backend = createFileBackend(root);
    await expect(backend.documents.update('../x.json', () => ({ a: 1 }))).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(backend.documents.update('out/x.json', () => ({ a: 1 }))).rejects.toBeInstanceOf(OutsideRootError);
    await expect(backend.logs.append('out/x.jsonl', [1])).rejects.toBeInstanceOf(OutsideRootError);
    await expect(backend.documents.get('out/x.json')).rejects.toBeInstanceOf(OutsideRootError);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('keyOf', () => {
  it("is the path relative to the project root, '/'-separated; a path leading out gives a key the backend refuses", async () => {
    const root = tempRoot();
    expect(keyOf(root, join(root, '.ratchet', 'campaign.json'))).toBe('.ratchet/campaign.json');
    const out = keyOf(root, join(root, '..', 'elsewhere.json'));
    await expect(createFileBackend(root).documents.get(out)).rejects.toBeInstanceOf(InvalidKeyError);
  });
});

describe('sharedBackendOf', () => {
  it('is undefined for no backend and for files (packages keep their own file paths), the backend otherwise', () => {
    const files = createFileBackend(tempRoot());
    expect(sharedBackendOf(undefined)).toBeUndefined();
    expect(sharedBackendOf(files)).toBeUndefined();
    const elsewhere = { ...files, kind: 'postgres' };
    expect(sharedBackendOf(elsewhere)).toBe(elsewhere);
  });
});

describe('file backend: logs', () => {
  it('are JSON Lines files; a torn last line is not a record and is cut by the next append', async () => {
    const root = tempRoot();
    const backend = createFileBackend(root);
    expect(await backend.logs.append('a.jsonl', [{ n: 1 }, { n: 2 }])).toBe(1);
    expect(readFileSync(join(root, 'a.jsonl'), 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    writeFileSync(join(root, 'a.jsonl'), '{"n":1}\n{"n":2}\n{"n":', { flag: 'w' });
    expect((await backend.logs.read('a.jsonl')).map((e) => e.seq)).toEqual([1, 2]);
    expect(await backend.logs.append('a.jsonl', [{ n: 3 }])).toBe(3);
    expect(readFileSync(join(root, 'a.jsonl'), 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('a line that does not parse is reported with its line number', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'bad.jsonl'), '{"n":1}\n\n{"n":\n');
    await expect(createFileBackend(root).logs.read('bad.jsonl')).rejects.toThrow(/bad\.jsonl.*line 3/u);
  });

  it('blank and CRLF lines from older writers read as before (blank lines are not records)', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'crlf.jsonl'), '{"n":1}\r\n\r\n{"n":2}\r\n');
    const backend = createFileBackend(root);
    expect(await backend.logs.read('crlf.jsonl')).toEqual([{ seq: 1, record: { n: 1 } }, { seq: 2, record: { n: 2 } }]);
    expect(await backend.logs.append('crlf.jsonl', ['x'])).toBe(3);
  });

  it('a blank line longer than a short one (many spaces) is still not a record when counting seqs', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'spaces.jsonl'), `1\n${' \t'.repeat(40)}\r\n2\n`);
    const backend = createFileBackend(root);
    expect((await backend.logs.read('spaces.jsonl')).map((e) => e.seq)).toEqual([1, 2]);
    expect(await backend.logs.append('spaces.jsonl', [3])).toBe(3);
    expect((await backend.logs.read('spaces.jsonl')).map((e) => [e.seq, e.record])).toEqual([[1, 1], [2, 2], [3, 3]]);
  });
});

describe('file backend: queues and locks live under .ratchet', () => {
  it('a queue document that is not one (hand-written, corrupt) is refused, never repaired by a claim', async () => {
    const root = tempRoot();
    const backend = createFileBackend(root);
    await backend.queues.offer('q', [{ id: 'a' }]);
    const path = join(root, '.ratchet', 'queues', 'q.json');
    // Rewritten through the backend (digest kept), but with a malformed item.
    await backend.documents.update('.ratchet/queues/q.json', (cur) => ({ ...cur?.value, items: [{ id: 'a', state: 'stolen' }] }));
    const before = readFileSync(path, 'utf8');
    await expect(backend.queues.claim('q', 'w', 60_000)).rejects.toThrow(/q\.json.*not a queue document: a malformed item/u);
    await expect(backend.queues.items('q')).rejects.toThrow(/not a queue document/u);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });


  it('a queue is one document under .ratchet/queues, a lock a lock file under .ratchet/locks', async () => {
    const root = tempRoot();
    const backend = createFileBackend(root);
    await backend.queues.offer('campaign/r1', [{ id: 'a' }]);
    expect(existsSync(join(root, '.ratchet', 'queues', 'campaign', 'r1.json'))).toBe(true);
    expect(await backend.queues.list()).toEqual(['campaign/r1']);
    const lease = await backend.locks.tryAcquire('jixo/task-1', 'runner-1', 60_000);
    expect(lease?.owner).toBe('runner-1');
    const lockFile = JSON.parse(readFileSync(join(root, '.ratchet', 'locks', 'jixo', 'task-1.lock'), 'utf8')) as Record<string, unknown>;
    expect(lockFile).toMatchObject({ owner: 'runner-1', token: lease?.token, detached: true, expires: lease?.leaseUntil });
  });
});
