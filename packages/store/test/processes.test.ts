/**
 * Real processes contending for real files: the inter-process half of "nothing lost".
 * Children run test/workers/worker.ts (see support/children.ts).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LockNotHeldError, LockTimeoutError, acquireLock, defineDocument, inspectLock, openDocument, openJsonl, releaseLockByToken } from '../src/index.js';
import { deadPid, killChild, startWorker, tempDir, type Child } from './support/children.js';

const counter = defineDocument({ schema: z.object({ count: z.number().int().nonnegative() }), version: 1, initial: { count: 0 } });

/** Start children, wait until all are ready, then release them at once so they really contend. */
async function startTogether(children: Child[]): Promise<void> {
  await Promise.all(children.map((c) => c.waitFor((l) => l === 'ready')));
  for (const c of children) c.send('go');
}

async function expectClean(children: Child[]): Promise<void> {
  const results = await Promise.all(children.map((c) => c.exited));
  for (const [i, r] of results.entries()) {
    expect({ exit: r.code, stderr: children[i]?.stderr(), tail: children[i]?.lines.slice(-2) }).toMatchObject({ exit: 0, stderr: '' });
  }
}

describe('several processes', () => {
  it('8 processes x 50 locked increments of one counter end at exactly 400', async () => {
    const dir = tempDir();
    const path = join(dir, 'counter.json');
    const children = Array.from({ length: 8 }, () => startWorker({ mode: 'count', file: path, increments: 50, timeoutMs: 60_000, waitForGo: true }));
    await startTogether(children);
    await expectClean(children);
    expect(await openDocument(path, counter).read()).toEqual({ count: 400 });
    // Every increment was acknowledged exactly once, with distinct resulting values.
    const values = children.flatMap((c) => c.lines.filter((l) => l.startsWith('committed ')).map((l) => Number(l.split(' ')[2])));
    expect(new Set(values).size).toBe(400);
    expect(readdirSync(dir).sort()).toEqual(['counter.json', 'counter.json.digest', 'counter.json.prev']);
  }, 120_000);

  it('6 processes appending to one JSONL file: every record present exactly once', async () => {
    const dir = tempDir();
    const path = join(dir, 'log.jsonl');
    const children = Array.from({ length: 6 }, (_, w) => startWorker({ mode: 'append', file: path, id: `w${w}`, count: 60, timeoutMs: 60_000, waitForGo: true }));
    await startTogether(children);
    await expectClean(children);
    const records = await openJsonl(path, { schema: z.object({ w: z.string(), i: z.number() }) }).read();
    expect(records).toHaveLength(360);
    for (let w = 0; w < 6; w++) {
      // Each writer's records appear once each and in its own order.
      expect(records.filter((r) => r.w === `w${w}`).map((r) => r.i)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    }
    expect(readdirSync(dir)).toEqual(['log.jsonl']);
  }, 60_000);

  it('a live holder in another process makes a waiter time out naming it; once killed, its lock is taken over at once', async () => {
    const path = join(tempDir(), 'jixo.md');
    const holder = startWorker({ mode: 'hold', file: path, extra: { runner: 'runner-42' }, exitAfterLocking: false });
    try {
      await holder.waitFor((l) => l.startsWith('locked '));
      const err = await acquireLock(path, { timeoutMs: 150 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockTimeoutError);
      const message = (err as Error).message;
      expect(message).toContain(`${path}: timed out after 150 ms waiting for the lock ${path}.lock`);
      expect(message).toMatch(new RegExp(`held by pid ${holder.pid} on host ${hostname()} since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, lease until \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(runner: "runner-42"\\)`, 'u'));
      expect((err as LockTimeoutError).holder).toMatchObject({ pid: holder.pid, runner: 'runner-42' });
    } finally {
      await killChild(holder);
    }
    expect((await inspectLock(path))?.stale).toBe(true);
    const started = performance.now();
    const lock = await acquireLock(path, { timeoutMs: 30_000 });
    // Far below the timeout: a dead holder is detected on the first look, not waited out.
    expect(performance.now() - started).toBeLessThan(10_000);
    await lock.release();
  }, 30_000);

  it('a detached lock taken by one process is released by token from another', async () => {
    const path = join(tempDir(), 'log.md');
    const locker = startWorker({ mode: 'hold', file: path, extra: { runner: 'r1' }, leaseMs: 3_600_000, exitAfterLocking: true });
    const token = (await locker.waitFor((l) => l.startsWith('locked '))).slice('locked '.length);
    expect((await locker.exited).code).toBe(0);
    const info = await inspectLock(path);
    expect(info).toMatchObject({ stale: false, holder: { pid: locker.pid, detached: true, runner: 'r1', token } });
    await expect(acquireLock(path, { timeoutMs: 50 })).rejects.toBeInstanceOf(LockTimeoutError);
    await expect(releaseLockByToken(path, 'f'.repeat(32))).rejects.toBeInstanceOf(LockNotHeldError);
    expect(existsSync(`${path}.lock`)).toBe(true);
    await releaseLockByToken(path, token);
    expect(existsSync(`${path}.lock`)).toBe(false);
  }, 30_000);

  it('waiters racing to take over dead holders keep mutual exclusion', async () => {
    const dir = tempDir();
    const path = join(dir, 'resource');
    const log = join(dir, 'critical.log');
    const pid = deadPid();
    const children = Array.from({ length: 4 }, (_, w) => startWorker({ mode: 'mutex', file: path, log, id: `w${w}`, iterations: 40, deadPid: pid, plantChance: 0.3 }));
    await expectClean(children);
    const planted = children.reduce((sum, c) => sum + Number(c.lines.find((l) => l.startsWith('done '))?.split(' ')[1]), 0);
    expect(planted).toBeGreaterThan(5); // the race really happened, many times
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4 * 40 * 2);
    for (let i = 0; i < lines.length; i += 2) {
      // Strict alternation: nobody entered while someone else was inside.
      const [enter, exit] = [lines[i] ?? '', lines[i + 1] ?? ''];
      expect(enter.startsWith('enter ')).toBe(true);
      expect(exit).toBe(enter.replace('enter', 'exit'));
    }
  }, 60_000);
});
