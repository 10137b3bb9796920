/**
 * JIXO log locks with leases: a detached lock whose holder sits on another host (so no pid check
 * can prove it dead) is recovered once its lease expires, and `renewRunnerLock` (what `jixo run`
 * does every third of the lease while an agent works) keeps a live runner's lock past its first lease.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { inspectLock, LockTimeoutError } from '@ratchet/store';
import { finishTask, lockLog, renewRunnerLock, runJob, unlockLog, updateLogFile, type AgentRequest } from '../src/index.js';

async function logFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-lease-'));
  const path = join(dir, 'x.log.md');
  await writeFile(path, '---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\n## Work Log\n');
  return path;
}

/** Make the current holder look like a process on another machine: no local pid check applies. */
async function moveHolderToAnotherHost(path: string): Promise<void> {
  const holder = JSON.parse(await readFile(`${path}.lock`, 'utf8')) as Record<string, unknown>;
  await writeFile(`${path}.lock`, `${JSON.stringify({ ...holder, host: 'builder-on-another-host', pid: 999_999 }, null, 2)}\n`);
}

describe('JIXO log locks with leases', () => {
  test('a runner dead on another host: its lock is recovered once the lease expires, not before', async () => {
    const path = await logFile();
    // Long enough that the refusal right after never finds it expired on a busy machine.
    const far = await lockLog(path, { runner: 'far', leaseMs: 2000 });
    await moveHolderToAnotherHost(path);
    await expect(lockLog(path, { runner: 'near', timeoutMs: 150 })).rejects.toBeInstanceOf(LockTimeoutError);
    await sleep(Date.parse(far.holder.leaseUntil!) - Date.now() + 200);
    const got = await lockLog(path, { runner: 'near', timeoutMs: 2_000 });
    expect(got.holder).toMatchObject({ runner: 'near', detached: true });
    // The late runner cannot unlock what is no longer its lock.
    await expect(unlockLog(path, 'far')).rejects.toMatchObject({ code: 'lock-not-held' });
    await unlockLog(path, 'near');
  }, 30_000);

  test('renewals keep a working runner\'s lock past its first lease; when they stop, it expires', async () => {
    const path = await logFile();
    // Leases of 1.5 s renewed every 0.5 s: a renewal is never late by a whole lease on a busy machine.
    await lockLog(path, { runner: 'busy', leaseMs: 1500 });
    await moveHolderToAnotherHost(path);
    for (let i = 0; i < 4; i++) {
      await sleep(500);
      expect(await renewRunnerLock(path, 'busy', 1500)).toBe(true);
    }
    // Over 2 s after a 1.5 s lease: still held.
    await expect(lockLog(path, { runner: 'other', timeoutMs: 150 })).rejects.toBeInstanceOf(LockTimeoutError);
    expect((await inspectLock(path))?.holder.runner).toBe('busy');
    // The runner died: no more renewals. One lease later the lock is recoverable.
    await sleep(1700);
    expect((await lockLog(path, { runner: 'other', timeoutMs: 2_000 })).holder.runner).toBe('other');
    expect(await renewRunnerLock(path, 'busy', 1500)).toBe(false);
    await unlockLog(path, 'other');
  }, 30_000);

  test('renewing a lock the runner does not hold changes nothing', async () => {
    const path = await logFile();
    expect(await renewRunnerLock(path, 'nobody', 400)).toBe(false);
    await lockLog(path, { runner: 'a', leaseMs: 60_000 });
    const before = await readFile(`${path}.lock`, 'utf8');
    expect(await renewRunnerLock(path, 'b', 400)).toBe(false);
    expect(await readFile(`${path}.lock`, 'utf8')).toBe(before);
    await unlockLog(path, 'a');
  });
});

describe('jixo run renews its agents\' locks', () => {
  const LEASE_MS = 1200;
  test('an agent holding the log lock (jixo lock) longer than the lease keeps it while it works', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jixo-lease-run-'));
    const job = join(dir, 'p.job.md');
    const log = join(dir, 'p.log.md');
    await writeFile(job, '---\nname: p\n---\n\nGoal.\n');
    await writeFile(log, '---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n\n## Work Log\n');
    const seen: { runner: unknown; stale: boolean | undefined }[] = [];
    const spawn = async (req: AgentRequest) => {
      // The agent takes the detached lock with the pool's lease, then works for three of them,
      // appearing to be on another host so only the lease decides. The lease is long enough that a
      // renewal (every third of it) is never late on a busy machine.
      await lockLog(log, { runner: req.runner, leaseMs: LEASE_MS });
      await moveHolderToAnotherHost(log);
      for (let i = 0; i < 3; i++) {
        await sleep(LEASE_MS);
        const info = await inspectLock(log);
        seen.push({ runner: info?.holder.runner, stale: info?.stale });
      }
      await unlockLog(log, req.runner);
      await updateLogFile(log, (l) => finishTask(l, { id: '1', runner: req.runner, job: 'p', outcome: 'Completed', summary: 'done' }, { now: '2030-01-01T00:00:00.000Z' }));
      return { code: 0, signal: null };
    };
    const result = await runJob({ jobPath: job, agent: 'x', runners: 1, spawn, lockLeaseMs: LEASE_MS });
    expect(result.status).toBe('completed');
    // Still the agent's live (not stale) lock at every look, three leases after it was taken: the
    // pool renewed it. Without the renewals the second and third looks see an expired lease.
    expect(seen).toHaveLength(3);
    expect(seen.map((x) => x.stale)).toEqual([false, false, false]);
    expect(new Set(seen.map((x) => x.runner)).size).toBe(1);
    expect(String(seen[0]!.runner)).toMatch(/^p-/);
  }, 30_000);
});
