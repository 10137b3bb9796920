/**
 * The journal, kept outside the project: what a digest record beside the file cannot show. A state
 * file that vanished, one whose record and kept copy were deleted before an edit, a rollback of a
 * file together with its record (what `git reset --hard`, `checkout`, `stash` and `restore` do),
 * and a file Ratchet removed that came back: each reads as tampering, never as "nothing there".
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TamperedError, acceptCurrent, createFileBackend, defineDocument, journalEntriesUnder, journalEntry, openDocument, recordRemoval, restorePrevious } from '../src/index.js';
import { tempDir } from './support/children.js';

const counter = defineDocument({ schema: z.object({ count: z.number().int().nonnegative() }), version: 1, initial: { count: 0 } });

let saved: string | undefined;
beforeAll(() => {
  saved = process.env.RATCHET_JOURNAL_DIR;
  process.env.RATCHET_JOURNAL_DIR = tempDir('ratchet-journal-');
});
afterAll(() => {
  if (saved === undefined) delete process.env.RATCHET_JOURNAL_DIR;
  else process.env.RATCHET_JOURNAL_DIR = saved;
});

async function project(count = 1): Promise<{ dir: string; path: string }> {
  const dir = tempDir('ratchet-journal-project-');
  const path = join(dir, '.ratchet', 'state.json');
  mkdirSync(join(dir, '.ratchet'));
  await openDocument(path, counter).update((d) => void (d.count = count));
  return { dir, path };
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

const git = (dir: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });

describe('the journal', () => {
  it('records each write outside the project, and a good file reads as before', async () => {
    const { dir, path } = await project(1);
    await openDocument(path, counter).update((d) => void d.count++);
    expect(journalEntry(path)).toMatchObject({ revision: 2 });
    expect(journalEntry(path)?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path, 'utf8')).toContain('"count": 2');
    expect(openDocument(path, counter).readSync()).toEqual({ count: 2 });
    // Nothing of the journal is in the project.
    expect(process.env.RATCHET_JOURNAL_DIR?.startsWith(dir)).toBe(false);
    expect(journalEntriesUnder(dir).map((e) => e.path)).toEqual([expect.stringMatching(/\.ratchet\/state\.json$/)]);
  });

  it('a tracked file that vanished (rm, rm -rf of its directory) is tampering, not an empty document', async () => {
    const { dir, path } = await project(3);
    rmSync(path);
    const e = refusal(() => openDocument(path, counter).readSync());
    expect(e).toMatchObject({ kind: 'vanished', path });
    expect(e.message).toContain('removed outside Ratchet');
    await expect(openDocument(path, counter).update((d) => void d.count++)).rejects.toBeInstanceOf(TamperedError);

    const other = await project(1);
    rmSync(join(other.dir, '.ratchet'), { recursive: true });
    mkdirSync(join(other.dir, '.ratchet'));
    expect(refusal(() => openDocument(other.path, counter).readSync()).kind).toBe('vanished');
    expect(existsSync(dir)).toBe(true);
  });

  it('a file whose digest record and kept copy were deleted before a hand edit is refused', async () => {
    const { path } = await project(1);
    rmSync(`${path}.digest`);
    rmSync(`${path}.prev`);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"count": 1', '"count": 99'));
    expect(refusal(() => openDocument(path, counter).readSync()).kind).toBe('missing-record');
  });

  it('a rollback of the file together with its digest record (git reset --hard, checkout, stash, restore) is refused', async () => {
    const { dir, path } = await project(1);
    git(dir, 'init', '-q');
    git(dir, 'add', '-A', '-f');
    git(dir, 'commit', '-q', '-m', 'revision 1');
    await openDocument(path, counter).update((d) => void (d.count = 5));
    expect(openDocument(path, counter).readSync()).toEqual({ count: 5 });

    for (const rollBack of [
      () => git(dir, 'checkout', '--', '.'),
      () => git(dir, 'reset', '-q', '--hard'),
      () => git(dir, 'restore', '.'),
      () => git(dir, 'stash', '-q'),
    ]) {
      const before = readFileSync(path, 'utf8');
      rollBack();
      expect(readFileSync(path, 'utf8')).not.toBe(before);
      const e = refusal(() => openDocument(path, counter).readSync());
      expect(e.kind).toBe('rolled-back');
      expect(e.message).toMatch(/rolled back to revision \d+ together with its digest record \(Ratchet last wrote revision \d+/);
      // Put the newer state back for the next spelling (what a person's --restore would do).
      await restorePrevious(path);
      // restorePrevious wrote revision 3 from the kept copy of revision 2... or of revision 1 when
      // git also restored `.prev`: either way the journal now agrees with the file again.
      expect(() => openDocument(path, counter).readSync()).not.toThrow();
      git(dir, 'add', '-A', '-f');
      git(dir, 'commit', '-q', '-m', 'next');
      await openDocument(path, counter).update((d) => void d.count++);
    }
  });

  it('a person accepts an absence or a rollback with acceptCurrent / a removal record', async () => {
    const { path } = await project(2);
    const old = readFileSync(path, 'utf8');
    const oldRecord = readFileSync(`${path}.digest`, 'utf8');
    await openDocument(path, counter).update((d) => void d.count++);
    writeFileSync(path, old);
    writeFileSync(`${path}.digest`, oldRecord);
    expect(refusal(() => openDocument(path, counter).readSync()).kind).toBe('rolled-back');
    await acceptCurrent(path);
    expect(openDocument(path, counter).readSync()).toEqual({ count: 2 });

    rmSync(path);
    expect(refusal(() => openDocument(path, counter).readSync()).kind).toBe('vanished');
    await recordRemoval(path);
    expect(openDocument(path, counter).readSync()).toEqual({ count: 0 });
  });

  it('a file Ratchet removed on purpose (a storage-port delete) reads as absent; if it comes back, that is a rollback', async () => {
    const dir = tempDir('ratchet-journal-port-');
    const backend = createFileBackend(dir);
    await backend.documents.update('.ratchet/campaign.json', () => ({ tasks: [] }));
    const path = join(dir, '.ratchet/campaign.json');
    const saved = readFileSync(path, 'utf8');
    const savedRecord = readFileSync(`${path}.digest`, 'utf8');
    expect(await backend.documents.delete('.ratchet/campaign.json')).toBe(true);
    expect(await backend.documents.get('.ratchet/campaign.json')).toBeUndefined();
    expect(journalEntry(path)).toMatchObject({ removed: true });
    writeFileSync(path, saved);
    writeFileSync(`${path}.digest`, savedRecord);
    await expect(backend.documents.get('.ratchet/campaign.json')).rejects.toMatchObject({ kind: 'rolled-back' });
  });

  it('a crash after the data rename and before the journal write (record ahead of the journal) reads as good', async () => {
    const { path } = await project(1);
    const journalled = journalEntry(path);
    const journalFile = join(process.env.RATCHET_JOURNAL_DIR!, readJournalName(path));
    const journalText = readFileSync(journalFile, 'utf8');
    await openDocument(path, counter).update((d) => void d.count++);
    // Put the journal back as it was before that write: the record is one revision ahead.
    writeFileSync(journalFile, journalText);
    expect(journalEntry(path)).toEqual(journalled);
    expect(openDocument(path, counter).readSync()).toEqual({ count: 2 });
  });

  it('RATCHET_JOURNAL=off records nothing and checks nothing; a broken journal file is ignored, never fatal', async () => {
    const { path } = await project(1);
    const journalFile = join(process.env.RATCHET_JOURNAL_DIR!, readJournalName(path));
    writeFileSync(journalFile, '{"version":1,"dir":');
    rmSync(path);
    expect(openDocument(path, counter).readSync()).toEqual({ count: 0 });
    await openDocument(path, counter).update((d) => void (d.count = 4));
    expect(journalEntry(path)).toMatchObject({ revision: 1 });

    process.env.RATCHET_JOURNAL = 'off';
    try {
      const { path: p2 } = await project(1);
      expect(journalEntry(p2, { RATCHET_JOURNAL: 'off' })).toBeUndefined();
      rmSync(p2);
      expect(openDocument(p2, counter).readSync()).toEqual({ count: 0 });
    } finally {
      delete process.env.RATCHET_JOURNAL;
    }
  });

  it('hostile journal content (__proto__ keys, wrong types) is read as data, never as a prototype', async () => {
    const { path } = await project(1);
    const journalFile = join(process.env.RATCHET_JOURNAL_DIR!, readJournalName(path));
    const j = JSON.parse(readFileSync(journalFile, 'utf8')) as { files: Record<string, unknown> };
    writeFileSync(journalFile, JSON.stringify({ ...j, files: { ...j.files, ['__proto__']: { revision: 9, at: 'x', sha256: 'y' }, 'other.json': { revision: 'x' } } }));
    expect(journalEntry(join(path, '..', 'other.json'))).toBeUndefined();
    expect(({} as Record<string, unknown>).revision).toBeUndefined();
    expect(openDocument(path, counter).readSync()).toEqual({ count: 1 });
  });
});

/** The journal file name for a path (hash of its directory's real path), found by listing. */
function readJournalName(path: string): string {
  const dir = process.env.RATCHET_JOURNAL_DIR!;
  const names = execFileSync('ls', [dir], { encoding: 'utf8' }).split('\n').filter((n) => n.endsWith('.json'));
  for (const name of names) {
    const j = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { dir: string };
    if (path.startsWith(`${j.dir}/`)) return name;
  }
  throw new Error(`no journal for ${path}`);
}
