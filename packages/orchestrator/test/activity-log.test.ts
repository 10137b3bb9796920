import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonParseError, ValidationError, type StorageBackend } from '@ratchet/store';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { activityEntry, createSession, moveTo, openActivityLog, openActivityLogStore, startPlan, type Session } from '../src/index.js';
import { ActivityEntrySchema } from '../src/schema.js';
import { fakeClock, host } from './support.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratchet-activity-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('activity log', () => {
  test('entries carry the LOGGING_SCHEMA fields, with the plan step while executing', () => {
    const o = host({ 'p.plan': 'read a\nwrite b\n' });
    let s: Session = { ...createSession('T-1', o), sessionId: 'S-1' };
    const start = activityEntry(s, { type: 'TASK_START', status: 'SUCCESS', message: 'oriented' }, { now: o.now, logId: 'L-1' });
    expect(start).toEqual({
      log_id: 'L-1',
      session_id: 'S-1',
      timestamp: '2026-01-01T00:00:01.000Z',
      phase: 'START',
      task: { id: 'T-1', plan_step: null },
      action: { type: 'TASK_START', details: {} },
      outcome: { status: 'SUCCESS', message: 'oriented' },
    });
    s = startPlan(moveTo(moveTo(s, 'ORIENTING', o), 'PLANNING', o), 'p.plan', o);
    const step = activityEntry(s, { type: 'STEP_COMPLETE', status: 'SUCCESS', message: 'read a', details: { line: 'read a' } }, o);
    expect(step).toMatchObject({ phase: 'EXECUTING', task: { plan_step: 0 }, action: { details: { line: 'read a' } } });
    expect(step.log_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ActivityEntrySchema.safeParse(step).success).toBe(true);
  });

  test('appends one JSON line per entry, creating logs/ on first use', async () => {
    const log = openActivityLog(join(dir, 'logs', 'activity.log.jsonl'));
    const s = createSession('T-2', { now: fakeClock() });
    await log.append([activityEntry(s, { type: 'TASK_START', status: 'SUCCESS', message: 'a' }, { now: fakeClock() })]);
    await log.append([activityEntry(s, { type: 'TASK_END', status: 'SUCCESS', message: 'b' }, { now: fakeClock() })]);
    const lines = (await readFile(log.path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { action: { type: string } }).action.type)).toEqual(['TASK_START', 'TASK_END']);
  });

  test('a log with a corrupt line is refused with its line number and left untouched', async () => {
    await mkdir(join(dir, 'logs'));
    const path = join(dir, 'logs', 'activity.log.jsonl');
    const s = createSession('T-3', { now: fakeClock() });
    const good = JSON.stringify(activityEntry(s, { type: 'TASK_START', status: 'INFO', message: '' }, { now: fakeClock() }));
    const text = `${good}\n{"log_id": truncated\n`;
    await writeFile(path, text);
    const err = await openActivityLog(path)
      .append([activityEntry(s, { type: 'TASK_END', status: 'SUCCESS', message: '' }, { now: fakeClock() })])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonParseError);
    expect(err).toMatchObject({ line: 2 });
    expect(await readFile(path, 'utf8')).toBe(text);
    await writeFile(path, `${good.replace('"INFO"', '"MAYBE"')}\n`);
    await expect(openActivityLog(path).read()).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('openActivityLogStore on files (the default)', () => {
  const entry = (id: string): ReturnType<typeof activityEntry> => activityEntry({ ...createSession('T-1', host({})), sessionId: 'S-1' }, { type: id, status: 'INFO', message: id }, { now: () => new Date('2030-01-01T00:00:00Z'), logId: id });

  test('is the JSONL file: appends keep earlier lines byte for byte, the file backend is files too', async () => {
    const path = join(dir, 'logs', 'activity.log.jsonl');
    await mkdir(join(dir, 'logs'));
    // A line kept from before Ratchet, in the original's shape: appends go after it, untouched.
    await writeFile(path, '{"legacy": true}\n');
    const { createFileBackend } = await import('@ratchet/store');
    const log = openActivityLogStore(path, { backend: createFileBackend(dir), key: 'logs/activity.log.jsonl', createParentDirs: true });
    expect(log.path).toBe(path);
    await log.append([entry('A'), entry('B')]);
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('{"legacy": true}\n')).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(3);
  });

  test('appendOnce appends exactly once among concurrent callers with the same check', async () => {
    const path = join(dir, 'activity.log.jsonl');
    const log = openActivityLogStore(path, { createParentDirs: true });
    const seen = (entries: readonly { action: { type: string } }[]): boolean => entries.some((e) => e.action.type === 'TASK_END');
    const results = await Promise.all(Array.from({ length: 6 }, () => log.appendOnce(entry('TASK_END'), seen)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await log.read()).map((e) => e.action.type)).toEqual(['TASK_END']);
  });

  test('a bad entry is refused before anything is written', async () => {
    const path = join(dir, 'activity.log.jsonl');
    const log = openActivityLogStore(path, { createParentDirs: true });
    const bad = { ...entry('X'), outcome: { status: 'MAYBE', message: '' } } as unknown as ReturnType<typeof activityEntry>;
    await expect(log.append([entry('A'), bad])).rejects.toBeInstanceOf(ValidationError);
    await expect(readFile(path, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a shared backend without the log key is refused', () => {
    const shared = { kind: 'postgres', location: 'postgres://db/x' } as unknown as StorageBackend;
    expect(() => openActivityLogStore(join(dir, 'a.jsonl'), { backend: shared })).toThrow(/needs its key/);
  });
});
