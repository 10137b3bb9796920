/**
 * Reliability with real processes (workers import the built dist: run `pnpm --filter @ratchet/jixo-log build` first;
 * the test builds nothing itself).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { inspectLock } from '@ratchet/store';
import { listTasks, parseLogStrict, serializeLog, initialLog, triage, releaseStaleLocks, updateLogFile, parseJobStrict, type RoadmapItem } from '../src/index.js';

const worker = fileURLToPath(new URL('./workers/runner.mjs', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));

async function setup(tasks: number): Promise<{ dir: string; log: string; job: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-proc-'));
  const log = initialLog('2030-01-01T00:00:00.000Z');
  log.frontMatter.title = 'Concurrency job';
  log.preamble = 'Keep me: preamble.';
  log.sections = [{ title: 'Notes', body: 'Keep me: notes.' }];
  const children: RoadmapItem[] = Array.from({ length: tasks }, (_, i) => ({ id: `1.${i + 1}`, text: `1.${i + 1}. Task ${i + 1}`, checked: false, status: 'Pending', notes: i === 0 ? ['- details: keep me too'] : [], children: [] }));
  log.roadmap = [{ id: '**Phase 1**', text: '**Phase 1**', checked: false, notes: [], children }];
  await writeFile(join(dir, 'job.log.md'), serializeLog(log));
  await writeFile(join(dir, 'job.job.md'), '---\nname: job\n---\n\nDo all the tasks.\n');
  return { dir, log: join(dir, 'job.log.md'), job: join(dir, 'job.job.md') };
}

function start(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.on('close', (code) => resolve({ code, out, err })));
  return { child, done };
}

describe.skipIf(!built && !process.env.CI)('real processes', () => {
  test('8 runner processes on one log: every task completed exactly once, one Work Log entry each, nothing else lost', async () => {
    const { log, job } = await setup(24);
    const ids = Array.from({ length: 8 }, (_, i) => `runner-${i}`);
    const runs = ids.map((id) => start(['work', log, job, id, ids.join(',')]));
    const results = await Promise.all(runs.map((r) => r.done));
    for (const r of results) expect(r.code, r.err).toBe(0);
    const done = results.map((r) => JSON.parse(r.out.trim()) as { done: number }).reduce((s, r) => s + r.done, 0);
    expect(done).toBe(24);
    const final = parseLogStrict(await readFile(log, 'utf8'));
    const tasks = listTasks(final);
    expect(tasks.every((t) => t.status === 'Completed')).toBe(true);
    expect(final.workLog).toHaveLength(24);
    const objectives = final.workLog.map((e) => e.objective).sort();
    expect(new Set(objectives).size).toBe(24);
    expect(final.workLog.map((e) => e.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    for (const t of tasks) expect(final.workLog.filter((e) => e.objective === `Task ${t.text}`)).toHaveLength(1);
    expect(final.frontMatter.progress).toBe(1);
    expect(final.frontMatter.exit?.code).toBe(0);
    expect(final.preamble).toBe('Keep me: preamble.');
    expect(final.sections).toEqual([{ title: 'Notes', body: 'Keep me: notes.' }]);
    expect(tasks[0]!.notes).toEqual(['- details: keep me too']);
    expect(final.roadmap[0]!.checked).toBe(true);
  }, 60_000);

  for (const mode of ['hold-task-and-lock', 'hold-bound-lock'] as const) {
    test(`kill -9 of a runner holding the lock (${mode === 'hold-task-and-lock' ? 'detached jixo lock' : 'process-bound'}): takeover, and its Locked task returns to Pending`, async () => {
      const { log, job } = await setup(3);
      const holder = start([mode, log, job, 'victim', 'victim']);
      await new Promise<void>((resolve, reject) => {
        holder.child.stdout!.on('data', (d: Buffer) => d.toString().includes('holding') && resolve());
        holder.child.on('close', () => reject(new Error('worker exited early')));
      });
      expect((await inspectLock(log))?.holder.runner).toBe('victim');
      holder.child.kill('SIGKILL');
      await holder.done;
      const jobFile = parseJobStrict(await readFile(job, 'utf8'));
      const { result } = await updateLogFile(
        log,
        (l) => {
          // Judged in 2030, long after the task's lease (10 minutes from its lock): see task-lease.test.ts for the lease itself.
          const d = triage({ log: l, job: jobFile, runner: 'next', active: [], now: Date.parse('2030-01-01T00:00:00.000Z') });
          const r = releaseStaleLocks(l, [], { now: '2030-01-01T00:00:00.000Z' });
          return { log: r.log, result: { d, released: r.released } };
        },
        { timeoutMs: 5_000, runner: 'next' },
      );
      expect(result?.released).toEqual(['1.1']);
      expect(result?.d.staleLocks).toEqual(['1.1']);
      const after = parseLogStrict(await readFile(log, 'utf8'));
      expect(listTasks(after)[0]).toMatchObject({ id: '1.1', status: 'Pending' });
      expect(listTasks(after)[0]!.runner).toBeUndefined();
      expect(after.workLog[0]!.summary).toMatch(/Lost attempt: runner victim/);
      expect(await inspectLock(log)).toBeUndefined();
    }, 30_000);
  }
});
