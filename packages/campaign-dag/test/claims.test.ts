/**
 * Leased claims on a real storage backend (the file backend: locked documents in a temp project).
 * Leases are short and the waits real, so expiry is the backend's clock, not a mocked one.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFileBackend, type StorageBackend } from '@ratchet/store';
import { addTasks, claimItemId, claimTask, claimTaskLeased, createCampaign, heartbeatClaims, readCampaign, readCampaignWithClaims, updateTask, type CampaignOptions } from '../src/index.js';
import { tempDir } from './support/children.js';

const backends: StorageBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

async function project(tasks: { seq: number; depends?: number[] | 'none' }[]): Promise<{ root: string; opts: CampaignOptions }> {
  const root = tempDir('campaign-claims-');
  const backend = createFileBackend(root);
  backends.push(backend);
  const opts: CampaignOptions = { backend };
  await createCampaign(root, 'leased claims', opts);
  await addTasks(root, { tasks: tasks.map((t) => ({ seq: t.seq, delta: [`f${t.seq}`], verify: 'true', depends: t.depends ?? 'none' })) }, opts);
  return { root, opts };
}

describe('leased claims', () => {
  test('two runners get different tasks; the queue and campaign.json agree on who holds what', async () => {
    const { root, opts } = await project([{ seq: 1 }, { seq: 2 }, { seq: 3, depends: [1] }]);
    const a = await claimTaskLeased(root, 'A', 60_000, opts);
    const b = await claimTaskLeased(root, 'B', 60_000, opts);
    expect([a?.task.seq, b?.task.seq]).toEqual([1, 2]);
    // 3 waits for 1: nothing left to claim.
    expect(await claimTaskLeased(root, 'C', 60_000, opts)).toBeUndefined();
    const c = await readCampaign(root, opts);
    expect(c.tasks.map((t) => [t.seq, t.status, t.runner ?? null, t.claimItem ?? null])).toEqual([
      [1, 'in_progress', 'A', '1'],
      [2, 'in_progress', 'B', '2'],
      [3, 'pending', null, null],
    ]);
    // Completing 1 offers 3 to the queue: the next claim gets it without any reconcile.
    await updateTask(root, 1, 'complete', { ...opts, runner: 'A' });
    const items = await opts.backend!.queues.items(`campaign/${c.id}`);
    expect(items.find((i) => i.id === '3')?.state).toBe('ready');
    expect(items.find((i) => i.id === '1')?.state).toBe('done');
    expect((await claimTaskLeased(root, 'C', 60_000, opts))?.task.seq).toBe(3);
  }, 30_000);

  test('an expired lease makes the task ready again; the next claim takes it over and records the lost attempt', async () => {
    const { root, opts } = await project([{ seq: 1 }]);
    // Long enough that B's claim right after never finds it expired on a busy machine.
    const first = await claimTaskLeased(root, 'A', 1500, opts);
    expect(first?.task.seq).toBe(1);
    expect(await claimTaskLeased(root, 'B', 1500, opts)).toBeUndefined();
    await sleep(Date.parse(first!.claim.leaseUntil) - Date.now() + 200);
    // Before anyone takes it over, status already shows it ready again (pending, no runner).
    const shown = await readCampaignWithClaims(root, opts);
    expect(shown.campaign.tasks[0]).toMatchObject({ status: 'pending' });
    expect(shown.campaign.tasks[0]!.runner).toBeUndefined();
    expect(shown.claims).toEqual([expect.objectContaining({ seq: 1, runner: 'A', expired: true })]);
    const second = await claimTaskLeased(root, 'B', 60_000, opts);
    expect(second?.task.seq).toBe(1);
    expect(second?.claim.attempt).toBe(2);
    const task = (await readCampaign(root, opts)).tasks[0]!;
    expect(task).toMatchObject({ status: 'in_progress', runner: 'B' });
    expect(task.lostAttempts).toEqual([{ runner: 'A', attempt: 1, leaseUntil: first!.claim.leaseUntil, recoveredAt: expect.any(String) as unknown }]);
    // A, back from the dead, may not finish it: refused, naming B, and nothing written.
    await expect(updateTask(root, 1, 'complete', { ...opts, runner: 'A' })).rejects.toMatchObject({ code: 'lease-lost', message: expect.stringContaining('B holds it now') as unknown });
    expect((await readCampaign(root, opts)).tasks[0]!.status).toBe('in_progress');
    await expect(heartbeatClaims(root, 'A', 60_000, opts)).rejects.toMatchObject({ code: 'lease-lost' });
    await updateTask(root, 1, 'complete', { ...opts, runner: 'B' });
    expect((await readCampaign(root, opts)).tasks[0]!.status).toBe('complete');
  }, 30_000);

  test('a heartbeat keeps the lease past its original end', async () => {
    const { root, opts } = await project([{ seq: 1 }]);
    // Leases of 1.5 s, a heartbeat every 0.5 s: one is never late by a whole lease on a busy machine.
    await claimTaskLeased(root, 'A', 1500, opts);
    for (let i = 0; i < 4; i++) {
      await sleep(500);
      const { renewed } = await heartbeatClaims(root, 'A', 1500, opts);
      expect(renewed.map((r) => r.task.seq)).toEqual([1]);
    }
    // Over 2 s after the claim, past its first 1.5 s lease: still A's.
    expect(await claimTaskLeased(root, 'B', 1500, opts)).toBeUndefined();
    const { claims } = await readCampaignWithClaims(root, opts);
    expect(claims).toEqual([expect.objectContaining({ seq: 1, runner: 'A', expired: false })]);
  }, 30_000);

  test('a lost lease nobody took over yet is refused too: the runner is told the task is ready again', async () => {
    const { root, opts } = await project([{ seq: 1 }]);
    await claimTaskLeased(root, 'A', 200, opts);
    await sleep(350);
    await expect(updateTask(root, 1, 'blocked', { ...opts, runner: 'A', reason: 'late' })).rejects.toMatchObject({ code: 'lease-lost', message: expect.stringContaining('nobody holds it now') as unknown });
    expect((await readCampaign(root, opts)).tasks[0]!.status).toBe('in_progress');
  }, 30_000);

  test('reconcile: ready tasks the queue never heard of (a crash between the two writes) are offered by the next claim', async () => {
    const root = tempDir('campaign-claims-');
    // Tasks added without a backend: nothing was offered.
    await createCampaign(root, 'no offers');
    await addTasks(root, { tasks: [{ seq: 1, delta: ['a'], verify: 'true' }, { seq: 2, delta: ['b'], verify: 'true' }] });
    const backend = createFileBackend(root);
    backends.push(backend);
    expect((await claimTaskLeased(root, 'A', 60_000, { backend }))?.task.seq).toBe(1);
    expect((await claimTaskLeased(root, 'B', 60_000, { backend }))?.task.seq).toBe(2);
  }, 30_000);

  test('stale items are skipped: a task claimed without a lease, and one given back, never reach two runners', async () => {
    const { root, opts } = await project([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
    // Task 1 claimed the old way (no lease): its queue item is stale.
    expect((await claimTask(root, 'old', opts))?.seq).toBe(1);
    const a = await claimTaskLeased(root, 'A', 60_000, opts);
    expect(a?.task.seq).toBe(2);
    // A gives 2 back: a new round, a new item; the old item can never be claimed again.
    const released = await updateTask(root, 2, 'pending', { ...opts, runner: 'A' });
    expect(claimItemId(released)).toBe('2.1');
    const b = await claimTaskLeased(root, 'B', 60_000, opts);
    expect(b?.task.seq).toBe(2);
    expect(b?.claim.id).toBe('2.1');
    expect((await claimTaskLeased(root, 'C', 60_000, opts))?.task.seq).toBe(3);
    expect(await claimTaskLeased(root, 'D', 60_000, opts)).toBeUndefined();
  }, 30_000);

  test('bad input: an empty or multi-line runner, and leased claims without a backend, are refused', async () => {
    const { root, opts } = await project([{ seq: 1 }]);
    await expect(claimTaskLeased(root, '', 1000, opts)).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(claimTaskLeased(root, 'a\nclaimed 001 for b', 1000, opts)).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(claimTaskLeased(root, 'A', 1000, {})).rejects.toMatchObject({ code: 'invalid-argument' });
    expect((await readCampaign(root, opts)).tasks[0]!.status).toBe('pending');
  }, 30_000);
});
