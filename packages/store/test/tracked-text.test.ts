/**
 * Tracked text files (lessons.jsonl): written only through the store with a digest record, so a hand
 * edit is refused on the next read or update; untracked files read as they are.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TamperedError, acceptCurrent, readDigestRecord, readTrackedText, updateTrackedText } from '../src/index.js';
import { tempDir } from './support/children.js';

describe('tracked text', () => {
  it('an untracked file reads as it is; the first update starts tracking it; the record names the bytes', async () => {
    const path = join(tempDir('ratchet-tracked-'), 'lessons.jsonl');
    expect(readTrackedText(path)).toEqual({ text: undefined, tracked: false });
    writeFileSync(path, 'not json at all\n');
    expect(readTrackedText(path)).toEqual({ text: 'not json at all\n', tracked: false });
    const result = await updateTrackedText(path, (text) => ({ text: `${text ?? ''}second\n`, result: 'ok' }));
    expect(result).toBe('ok');
    expect(readFileSync(path, 'utf8')).toBe('not json at all\nsecond\n');
    expect(readTrackedText(path)).toEqual({ text: 'not json at all\nsecond\n', tracked: true });
    expect(readDigestRecord(path)?.current.size).toBe(Buffer.byteLength('not json at all\nsecond\n'));
  });

  it('a hand edit after a tracked write is refused by reads and updates, and nothing is written', async () => {
    const path = join(tempDir('ratchet-tracked-'), 'lessons.jsonl');
    await updateTrackedText(path, () => ({ text: '{"status":"pending"}\n', result: undefined }), { createParentDirs: true });
    // The shortcut: mark the lesson applied by hand.
    writeFileSync(path, '{"status":"applied"}\n');
    expect(() => readTrackedText(path)).toThrow(TamperedError);
    await expect(updateTrackedText(path, () => ({ text: 'x\n', result: undefined }))).rejects.toBeInstanceOf(TamperedError);
    expect(readFileSync(path, 'utf8')).toBe('{"status":"applied"}\n');
    // A person accepts the edit: reads pass again.
    await acceptCurrent(path);
    expect(readTrackedText(path).text).toBe('{"status":"applied"}\n');
  });

  it('returning the same text or undefined writes nothing (no record for an untouched file); a throwing fn writes nothing', async () => {
    const dir = tempDir('ratchet-tracked-');
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, 'kept\n');
    await updateTrackedText(path, (text) => ({ text, result: undefined }));
    await updateTrackedText(path, () => ({ result: undefined }));
    expect(existsSync(`${path}.digest`)).toBe(false);
    await expect(updateTrackedText(path, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(readFileSync(path, 'utf8')).toBe('kept\n');
  });

  it('a path through a symlink out of the root is refused', async () => {
    const root = tempDir('ratchet-tracked-root-');
    await expect(updateTrackedText(join(root, '..', 'outside.jsonl'), () => ({ text: 'x', result: undefined }), { root })).rejects.toMatchObject({ code: 'outside-root' });
    expect(() => readTrackedText(join(root, '..', 'outside.jsonl'), { root })).toThrow(/outside|leaves/i);
  });
});
