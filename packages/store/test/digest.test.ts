/**
 * Digests that show a hand edit: what `update` records, what a read refuses, and that neither a
 * crash between the record and the data rename nor concurrent writers and readers ever make a good
 * file look tampered.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QUICK_MAX, TamperedError, acceptCurrent, defineDocument, openDocument, readDigestRecord, restorePrevious } from '../src/index.js';
import { startWorker, tempDir } from './support/children.js';

const counter = defineDocument({ schema: z.object({ count: z.number().int().nonnegative(), note: z.string().optional() }), version: 1, initial: { count: 0 } });
const at = (iso: string) => ({ lock: { clock: () => Date.parse(iso) } });

async function tracked(count = 1): Promise<string> {
  const path = join(tempDir('ratchet-digest-'), 'state.json');
  await openDocument(path, counter, at('2030-01-02T03:04:05.000Z')).update((d) => void (d.count = count));
  return path;
}

function refusal(fn: () => unknown): TamperedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TamperedError) return err;
    throw err;
  }
  throw new Error('expected a TamperedError');
}

describe('digest records', () => {
  it('round trip: the record names what was written (sha256sum of the file), and reads pass', async () => {
    const path = await tracked(1);
    const record = readDigestRecord(path);
    expect(record).toMatchObject({ version: 1, previous: null, writtenAt: '2030-01-02T03:04:05.000Z', replacedIno: null });
    expect(record?.current.sha256).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'));
    expect(record?.current.size).toBe(statSync(path).size);
    const doc = openDocument(path, counter);
    expect(await doc.read()).toEqual({ count: 1 });
    expect(doc.readSync()).toEqual({ count: 1 });
    await doc.update((d) => void d.count++);
    expect(readDigestRecord(path)?.previous).toEqual(record?.current);
    // A copy of the last good version is kept, byte for byte.
    expect(readFileSync(`${path}.prev`, 'utf8')).toBe(readFileSync(path, 'utf8'));
    expect(doc.readSync()).toEqual({ count: 2 });
  });

  it('refuses a same-size hand edit on read, readSync and update, naming the file and when Ratchet wrote it', async () => {
    const path = await tracked(1);
    const edited = readFileSync(path, 'utf8').replace('"count": 1', '"count": 7');
    writeFileSync(path, edited);
    const doc = openDocument(path, counter);
    const sync = refusal(() => doc.readSync());
    expect(sync).toMatchObject({ code: 'tampered', kind: 'mismatch', path, writtenAt: '2030-01-02T03:04:05.000Z' });
    expect(sync.message).toContain(path);
    expect(sync.message).toContain('2030-01-02T03:04:05.000Z');
    await expect(doc.read()).rejects.toBeInstanceOf(TamperedError);
    await expect(doc.update((d) => void d.count++)).rejects.toBeInstanceOf(TamperedError);
    expect(readFileSync(path, 'utf8')).toBe(edited);
  });

  it('checks files above the quick-hash size with SHA-256', async () => {
    const path = await tracked(1);
    await openDocument(path, counter).update((d) => void (d.note = 'x'.repeat(QUICK_MAX + 10)));
    expect(openDocument(path, counter).readSync().note).toHaveLength(QUICK_MAX + 10);
    writeFileSync(path, readFileSync(path, 'utf8').replace('xxxx', 'xyxx'));
    expect(refusal(() => openDocument(path, counter).readSync()).kind).toBe('mismatch');
  });

  it('reads a file without a record as not tracked; a record removed while a kept version exists is an edit', async () => {
    const path = join(tempDir('ratchet-digest-'), 'state.json');
    writeFileSync(path, '{ "schemaVersion": 1, "count": 3 }\n');
    const doc = openDocument(path, counter);
    expect(doc.readSync()).toEqual({ count: 3 });
    await doc.update((d) => void d.count++);
    await doc.update((d) => void d.count++);
    unlinkSync(`${path}.digest`);
    expect(refusal(() => doc.readSync()).kind).toBe('missing-record');
    writeFileSync(`${path}.digest`, '{}');
    expect(refusal(() => doc.readSync()).kind).toBe('bad-record');
  });

  it('a writer killed between the record and the data rename leaves a state that reads as the replaced version; the next update goes on', async () => {
    const path = await tracked(1);
    const before = readFileSync(path, 'utf8');
    const child = startWorker({ mode: 'crash-before-rename', file: path });
    expect(await child.exited, child.stderr()).toMatchObject({ signal: 'SIGKILL' });
    expect(child.lines).toContain('crashing');
    // The record already names version 2; the data file is still version 1.
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readDigestRecord(path)?.current.sha256).not.toBe(createHash('sha256').update(before).digest('hex'));
    const doc = openDocument(path, counter);
    expect(doc.readSync()).toEqual({ count: 1 });
    expect(await doc.read()).toEqual({ count: 1 });
    // The next writer takes the dead one's lock over, clears what it left, and writes.
    await doc.update((d) => void (d.count = 5));
    expect(doc.readSync()).toEqual({ count: 5 });
    expect(readdirSync(join(path, '..')).sort()).toEqual(['state.json', 'state.json.digest', 'state.json.prev']);
    // Version 1 written back by hand now is a rollback, not that state.
    writeFileSync(path, before);
    expect(refusal(() => doc.readSync()).kind).toBe('mismatch');
  });

  it('the crash state is accepted only on the temp file the record names: a forged, foreign or missing name is refused', async () => {
    const path = await tracked(1);
    const child = startWorker({ mode: 'crash-before-rename', file: path });
    expect(await child.exited, child.stderr()).toMatchObject({ signal: 'SIGKILL' });
    const record = readDigestRecord(path)!;
    const temp = join(path, '..', record.dataTemp!);
    expect(record.dataTemp).toMatch(/^\.state\.json\.\d+\.[0-9a-f]{12}\.tmp$/u);
    expect(existsSync(temp)).toBe(true);
    const doc = openDocument(path, counter);
    expect(doc.readSync()).toEqual({ count: 1 });
    const withName = (dataTemp: unknown): void => writeFileSync(`${path}.digest`, JSON.stringify({ ...record, dataTemp }));
    // Names that lead elsewhere, or are not this file's temp names, are not looked at.
    writeFileSync(join(path, '..', 'elsewhere'), '');
    for (const forged of ['elsewhere', '../elsewhere', `../${record.dataTemp!}`, `${record.dataTemp!}/..`, '.state.json.1.zzzzzzzzzzzz.tmp', '.other.json.1.0123456789ab.tmp']) {
      withName(forged);
      expect(refusal(() => doc.readSync()).kind, forged).toBe('mismatch');
    }
    // A record from before the field (an older Ratchet) accepts only its current content.
    withName(undefined);
    expect(refusal(() => doc.readSync()).kind).toBe('mismatch');
    // The named temp file gone (the write completed, or someone deleted it): refused.
    withName(record.dataTemp);
    expect(doc.readSync()).toEqual({ count: 1 });
    unlinkSync(temp);
    expect(refusal(() => doc.readSync()).kind).toBe('mismatch');
  });

  it('a hand rollback never passes for that state, even on the inode the write replaced', async () => {
    const path = await tracked(1);
    const doc = openDocument(path, counter);
    const before = readFileSync(path, 'utf8');
    // A backup sharing version 1's inode (ln, cp -l, a snapshot tool). Moving it back gives the file
    // the very inode the write replaced, as a file system that reuses a freed inode number at once
    // gives a new file: inode identity cannot tell this from the crash state.
    linkSync(path, `${path}.keep`);
    await doc.update((d) => void d.count++);
    renameSync(`${path}.keep`, path);
    expect(statSync(path, { bigint: true }).ino.toString()).toBe(readDigestRecord(path)?.replacedIno);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(refusal(() => doc.readSync()).kind).toBe('mismatch');
    await expect(doc.read()).rejects.toBeInstanceOf(TamperedError);
    await expect(doc.update((d) => void d.count++)).rejects.toBeInstanceOf(TamperedError);
    // Written back as a new file, or in place: refused too.
    writeFileSync(`${path}.hand`, before);
    renameSync(`${path}.hand`, path);
    expect(refusal(() => doc.readSync()).kind).toBe('mismatch');
    writeFileSync(path, before);
    expect(refusal(() => doc.readSync()).kind).toBe('mismatch');
  });

  it('a crash before the record is written leaves the old record, which matches the old data', async () => {
    const path = await tracked(1);
    // What a writer killed with its temp files written but nothing renamed leaves behind.
    writeFileSync(join(path, '..', `.state.json.${process.pid}.0123456789ab.tmp`), '{"half');
    writeFileSync(join(path, '..', `.state.json.digest.${process.pid}.0123456789ab.tmp`), '{"half');
    const doc = openDocument(path, counter);
    expect(doc.readSync()).toEqual({ count: 1 });
    await doc.update((d) => void d.count++);
    expect(readdirSync(join(path, '..')).sort()).toEqual(['state.json', 'state.json.digest', 'state.json.prev']);
  });

  it('accept records the current content as good; restore puts the kept version back and keeps the bad one aside', async () => {
    const path = await tracked(1);
    const doc = openDocument(path, counter);
    await doc.update((d) => void d.count++);
    const good = readFileSync(path, 'utf8');
    writeFileSync(path, good.replace('"count": 2', '"count": 9'));
    expect(() => doc.readSync()).toThrow(TamperedError);

    const restored = await restorePrevious(path, at('2030-02-03T04:05:06.789Z'));
    expect(restored.rejectedPath).toBe(`${path}.rejected-2030-02-03T04-05-06-789Z`);
    expect(readFileSync(restored.rejectedPath!, 'utf8')).toContain('"count": 9');
    expect(readFileSync(path, 'utf8')).toBe(good);
    expect(doc.readSync()).toEqual({ count: 2 });
    await doc.update((d) => void d.count++);
    expect(doc.readSync()).toEqual({ count: 3 });

    writeFileSync(path, readFileSync(path, 'utf8').replace('"count": 3', '"count": 4'));
    expect(() => doc.readSync()).toThrow(TamperedError);
    const record = await acceptCurrent(path, at('2030-03-04T05:06:07.000Z'));
    expect(record.writtenAt).toBe('2030-03-04T05:06:07.000Z');
    expect(readFileSync(`${path}.prev`, 'utf8')).toBe(readFileSync(path, 'utf8'));
    expect(doc.readSync()).toEqual({ count: 4 });
    await doc.update((d) => void d.count++);
    expect(doc.readSync()).toEqual({ count: 5 });
  });

  it('restore refuses a kept version that was edited too', async () => {
    const path = await tracked(1);
    await openDocument(path, counter).update((d) => void d.count++);
    writeFileSync(`${path}.prev`, readFileSync(`${path}.prev`, 'utf8').replace('"count": 2', '"count": 3'));
    await expect(restorePrevious(path)).rejects.toMatchObject({ code: 'tampered', path: `${path}.prev` });
    expect(existsSync(`${path}.prev`)).toBe(true);
  });

  it('4 processes updating one document while this one reads without a lock: no false tamper report', async () => {
    const path = join(tempDir('ratchet-digest-'), 'counter.json');
    const children = Array.from({ length: 4 }, () => startWorker({ mode: 'count', file: path, increments: 40, timeoutMs: 60_000, waitForGo: true }));
    await Promise.all(children.map((c) => c.waitFor((l) => l === 'ready')));
    for (const c of children) c.send('go');
    const doc = openDocument(path, counter);
    let running = true;
    const exited = Promise.all(children.map((c) => c.exited)).finally(() => (running = false));
    let reads = 0;
    let last = 0;
    while (running) {
      const { count } = reads % 2 === 0 ? doc.readSync() : await doc.read();
      expect(count).toBeGreaterThanOrEqual(last);
      last = count;
      reads++;
      await new Promise((r) => setImmediate(r));
    }
    const results = await exited;
    for (const [i, r] of results.entries()) expect({ code: r.code, stderr: children[i]?.stderr() }).toEqual({ code: 0, stderr: '' });
    expect(doc.readSync()).toEqual({ count: 160 });
    expect(reads).toBeGreaterThan(0);
  }, 120_000);
});
