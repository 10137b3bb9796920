import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaVersionError } from '@ratchet/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, currentStep, moveTo, openSession, startPlan, type Session } from '../src/index.js';
import { fakeClock, host } from './support.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratchet-orchestrator-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plans = { 'r.plan': 'read a\ncall_plan s.plan\nwrite c\n', 's.plan': 'read b\n' };

describe('session file', () => {
  it('a missing file reads as a fresh session at START and is not created', async () => {
    const file = openSession(join(dir, 'session.json'), { taskId: 'T-9', now: fakeClock() });
    const s = await file.read();
    expect(s).toMatchObject({ taskId: 'T-9', state: 'START', stack: [], history: [] });
    await expect(readFile(file.path, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('round-trips through a real file; a reopened session continues identically', async () => {
    const path = join(dir, 'session.json');
    const o = host(plans);
    const first = openSession(path, { taskId: 'T-1', now: o.now });
    await first.update((s) => moveTo(moveTo(s, 'ORIENTING', o), 'PLANNING', o));
    const saved = await first.update((s) => advance(startPlan(s, 'r.plan', o), {}, o));
    expect(currentStep(saved)?.chain).toEqual(['r.plan', 's.plan']);

    const onDisk = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(onDisk.schemaVersion).toBe(1);
    expect(onDisk.state).toBe('EXECUTING');

    // "Another process": a new handle, a clock at the same instant as the in-memory run.
    const reopened = await openSession(path, { taskId: 'ignored', now: fakeClock() }).read();
    expect(reopened).toEqual(saved);

    const clockA = fakeClock(Date.UTC(2026, 5, 1));
    const clockB = fakeClock(Date.UTC(2026, 5, 1));
    const finish = (s: Session, now: () => Date): Session => {
      const opts = { ...o, now };
      while (currentStep(s) !== undefined) s = advance(s, {}, opts);
      return s;
    };
    const inMemory = finish(saved, clockA);
    const persisted = await openSession(path, { taskId: 'ignored', now: fakeClock() }).update((s) => finish(s, clockB));
    expect(persisted).toEqual(inMemory);
    expect(persisted.state).toBe('AWAITING_ANALYSIS');
    expect(await openSession(path, { taskId: 'x', now: fakeClock() }).read()).toEqual(inMemory);
  });

  it('refuses a file with a newer schemaVersion and leaves it untouched', async () => {
    const path = join(dir, 'session.json');
    const text = `${JSON.stringify({ schemaVersion: 2, taskId: 'T', state: 'START', stack: [], history: [], createdAt: 'x', updatedAt: 'x', extra: true }, null, 2)}\n`;
    await writeFile(path, text);
    const file = openSession(path, { taskId: 'T', now: fakeClock() });
    await expect(file.read()).rejects.toBeInstanceOf(SchemaVersionError);
    await expect(file.update((s) => moveTo(s, 'ORIENTING', { now: fakeClock() }))).rejects.toThrow(/newer version: schemaVersion 2/);
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('refuses a session that does not match the schema, writing nothing', async () => {
    const path = join(dir, 'session.json');
    const file = openSession(path, { taskId: 'T', now: fakeClock() });
    await expect(file.update((s) => ({ ...s, stack: [{ planPath: '', steps: [], current: -1 }] }))).rejects.toThrow();
    await expect(readFile(path, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
