import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonParseError, ValidationError } from '@ratchet/store';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { activityEntry, createSession, moveTo, openActivityLog, startPlan, type Session } from '../src/index.js';
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
