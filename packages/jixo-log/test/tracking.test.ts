/**
 * Issue 29: a log's last good version is kept, and every read audits a change made outside Ratchet
 * against it (the same audit for every command); the holder of the log lock may write the file,
 * and unlock judges that edit. Bad and hostile input: a forged kept copy, a removed digest record,
 * CRLF and a BOM, front matter values that are not what Ratchet writes.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  JixoParseError,
  RejectedEditError,
  acceptLogFile,
  addTask,
  auditLogFile,
  inspectLogFile,
  lockLog,
  parseLog,
  readLogFile,
  restoreLogFile,
  unlockLog,
  updateLogFile,
} from '../src/index.js';

const LOG = '---\ntitle: "Docs"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n- [ ] 2. b\n  - status: Pending\n\n## Work Log\n';
const ctx = { now: '2030-01-01T00:00:00.000Z' };

async function tracked(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'jixo-tracking-')), 'docs.log.md');
  await writeFile(path, LOG);
  // First seen: an untracked log is read as it is; the first write makes it tracked.
  expect(auditLogFile(path, LOG)).toMatchObject({ tracked: false, edited: false, diagnostics: [] });
  await updateLogFile(path, (l) => addTask(l, { id: '3', title: 'c' }, ctx));
  expect(existsSync(`${path}.digest`) && existsSync(`${path}.prev`)).toBe(true);
  return path;
}

const tick = (text: string): string => text.replace('- [ ] 2. b\n  - status: Pending', '- [x] 2. b\n  - status: Completed');
const errorsOf = (path: string, text: string) => auditLogFile(path, text).diagnostics.filter((d) => d.severity === 'error');

describe('tracked logs', () => {
  test('a benign hand edit (the title) reads, and the next write records it; a status ticked by hand is refused by every read and write, naming its line', async () => {
    const path = await tracked();
    const good = await readFile(path, 'utf8');
    await writeFile(path, good.replace('title: "Docs"', 'title: "Docs, by hand"'));
    expect((await readLogFile(path)).log.frontMatter.title).toBe('Docs, by hand');
    await updateLogFile(path, (l) => addTask(l, { id: '4', title: 'd' }, ctx));
    expect(auditLogFile(path, await readFile(path, 'utf8')).edited).toBe(false);
    const now = await readFile(path, 'utf8');
    await writeFile(path, tick(now));
    const line = tick(now).split('\n').indexOf('- [x] 2. b') + 1;
    await expect(readLogFile(path)).rejects.toMatchObject({ name: 'JixoParseError', line, diagnostics: [expect.objectContaining({ rule: 'status-without-entry' })] });
    await expect(updateLogFile(path, (l) => addTask(l, { id: '5', title: 'e' }, ctx))).rejects.toBeInstanceOf(JixoParseError);
    expect(await readFile(path, 'utf8')).toBe(tick(now));
    // inspectLogFile (check, doctor) reports the same without refusing.
    expect((await inspectLogFile(path)).diagnostics.filter((d) => d.severity === 'error').map((d) => d.line)).toEqual([line]);
  });

  test('a kept copy that matches no recorded version, or a removed digest record, cannot vouch for an edit', async () => {
    const path = await tracked();
    const good = await readFile(path, 'utf8');
    // An agent that edits both the log and its kept copy: the copy no longer matches the record.
    await writeFile(path, tick(good));
    await writeFile(`${path}.prev`, tick(good));
    expect(errorsOf(path, tick(good)).map((d) => d.rule)).toEqual(['tampered']);
    // The record removed: the kept copy cannot be checked either.
    await writeFile(`${path}.prev`, good);
    await rm(`${path}.digest`);
    expect(errorsOf(path, tick(good)).map((d) => d.rule)).toEqual(['tampered']);
    // A digest record that is not one Ratchet wrote.
    await writeFile(`${path}.digest`, '{"version": 9}');
    expect(errorsOf(path, good).map((d) => d.rule)).toEqual(['tampered']);
  });

  test('accept makes the current text the baseline (a person\'s decision); restore puts the last good version back and keeps the refused one', async () => {
    const path = await tracked();
    const good = await readFile(path, 'utf8');
    await writeFile(path, tick(good));
    await restoreLogFile(path);
    expect(await readFile(path, 'utf8')).toBe(good);
    const kept = readdirSync(dirname(path)).filter((f) => f.startsWith('docs.log.md.rejected-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dirname(path), kept[0]!), 'utf8')).toBe(tick(good));
    await writeFile(path, tick(good));
    await acceptLogFile(path);
    expect(errorsOf(path, tick(good))).toEqual([]);
    // A text that does not parse is not accepted.
    await writeFile(path, 'not a log');
    await expect(acceptLogFile(path)).rejects.toBeInstanceOf(JixoParseError);
  });
});

describe('an edit under the log lock, judged at unlock', () => {
  test('garbage is refused: the last good version is back, the garbage kept, the lock released', async () => {
    const path = await tracked();
    await lockLog(path, { runner: 'r1' });
    const good = await readFile(path, 'utf8');
    await writeFile(path, '\uFEFFgarbage\r\n- [ ] x\r\n');
    const err = await unlockLog(path, 'r1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RejectedEditError);
    expect((err as RejectedEditError).diagnostics.some((d) => d.rule === 'missing-section')).toBe(true);
    expect(await readFile(path, 'utf8')).toBe(good);
    expect(existsSync((err as RejectedEditError).rejectedPath!)).toBe(true);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  test('the holder\'s own plan change passes only for a person (or the elected Planner); a runner\'s is refused', async () => {
    const path = await tracked();
    for (const [userActs, ok] of [
      [false, false],
      [true, true],
    ] as const) {
      await lockLog(path, { runner: 'r1' });
      const before = await readFile(path, 'utf8');
      await writeFile(path, before.replace('- [ ] 2. b\n  - status: Pending\n', '- [ ] 2. b\n  - status: Pending\n- [ ] 9. by hand\n  - status: Pending\n'));
      const result = await unlockLog(path, 'r1', { userActs }).then(
        () => 'ok',
        (e: unknown) => (e as RejectedEditError).diagnostics.map((d) => d.rule).join(','),
      );
      expect(result).toBe(ok ? 'ok' : 'not-planner');
      expect((await readFile(path, 'utf8')).includes('9. by hand')).toBe(ok);
    }
  });

  test('an untracked log becomes tracked when it is locked, so even its first edit can be put back', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'jixo-tracking-')), 'docs.log.md');
    await writeFile(path, LOG);
    await lockLog(path, { runner: 'r1' });
    await writeFile(path, tick(LOG).replace('\n', '\r\n'));
    await expect(unlockLog(path, 'r1')).rejects.toBeInstanceOf(RejectedEditError);
    expect(await readFile(path, 'utf8')).toBe(LOG);
  });
});

describe('the front matter records Ratchet writes', () => {
  test.each([
    ['a runner that is empty', 'planner: {"runner": "", "leaseUntil": "2030-01-01T00:00:00.000Z", "since": "2030-01-01T00:00:00.000Z"}'],
    ['a lease that is no UTC time', 'planner: {"runner": "p", "leaseUntil": "tomorrow", "since": "2030-01-01T00:00:00.000Z"}'],
    ['a list', 'planner: [p]'],
    ['a string', 'planner: p'],
  ])('a planner record with %s is an error on its line, never "no Planner"', (_what, line) => {
    const { diagnostics } = parseLog(LOG.replace('progress: "0%"\n', `progress: "0%"\n${line}\n`));
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.line])).toEqual([['bad-front-matter', 4]]);
  });
});
