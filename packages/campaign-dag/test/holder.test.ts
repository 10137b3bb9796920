/**
 * A claimed task changes only by its holder (or the user): the shortcut a builder takes is to
 * report another builder's task (by naming itself, or by naming nobody), and both are refused, with
 * and without a lease, before anything is written. The user overrides explicitly (`asUser`).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createFileBackend, type StorageBackend } from '@ratchet/store';
import { addTasks, claimTask, claimTaskLeased, createCampaign, readCampaign, setTaskStatus, updateTask, type CampaignOptions } from '../src/index.js';
import { tempDir } from './support/children.js';

const backends: StorageBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

async function project(leased: boolean): Promise<{ root: string; opts: CampaignOptions }> {
  const root = tempDir('campaign-holder-');
  const opts: CampaignOptions = {};
  if (leased) {
    const backend = createFileBackend(root);
    backends.push(backend);
    opts.backend = backend;
  }
  await createCampaign(root, 'holders', opts);
  await addTasks(root, { tasks: [{ seq: 1, delta: ['a'], verify: 'true' }, { seq: 2, delta: ['b'], verify: 'true' }] }, opts);
  return { root, opts };
}

describe.each([
  ['without a lease', false],
  ['with a lease', true],
])('a claimed task %s', (_name, leased) => {
  const claim = async (root: string, runner: string, opts: CampaignOptions): Promise<number | undefined> =>
    leased ? (await claimTaskLeased(root, runner, 60_000, opts))?.task.seq : (await claimTask(root, runner, opts))?.seq;

  test('another builder completing it is refused, naming the holder; nothing is written', async () => {
    const { root, opts } = await project(leased);
    expect(await claim(root, 'A', opts)).toBe(1);
    const before = await readCampaign(root, opts);
    await expect(updateTask(root, 1, 'complete', { ...opts, runner: 'B' })).rejects.toMatchObject({ code: 'not-holder', message: expect.stringContaining('held by A') as unknown });
    expect(await readCampaign(root, opts)).toEqual(before);
  }, 30_000);

  test('leaving out the runner is refused too (the shortcut: say nobody, and act as anybody)', async () => {
    const { root, opts } = await project(leased);
    expect(await claim(root, 'A', opts)).toBe(1);
    for (const status of ['complete', 'blocked', 'pending'] as const) {
      await expect(updateTask(root, 1, status, { ...opts, reason: 'shortcut' })).rejects.toMatchObject({ code: 'not-holder' });
    }
    expect((await readCampaign(root, opts)).tasks[0]).toMatchObject({ status: 'in_progress', runner: 'A' });
    // The holder itself may.
    expect((await updateTask(root, 1, 'complete', { ...opts, runner: 'A' })).status).toBe('complete');
  }, 30_000);

  test('the user may override (explicitly): the task changes and the claim is released', async () => {
    const { root, opts } = await project(leased);
    expect(await claim(root, 'A', opts)).toBe(1);
    const task = await updateTask(root, 1, 'blocked', { ...opts, asUser: true, reason: 'stopped by the user' });
    expect(task).toMatchObject({ status: 'blocked', reason: 'stopped by the user' });
    // A, which no longer holds anything, cannot change it back.
    await expect(updateTask(root, 1, 'complete', { ...opts, runner: 'A' })).rejects.toMatchObject({ code: 'illegal-transition' });
  }, 30_000);
});

test('the pure core refuses the same way (setTaskStatus)', () => {
  const campaign = { id: 'c', objective: 'o', framework: null, idioms: { required: [], forbidden: [] }, createdAt: '', status: 'active' as const, tasks: [{ seq: 1, slug: 's', type: 'BUILD' as const, delta: ['a'], verify: 'v', depends: [], status: 'in_progress' as const, runner: 'A' }] };
  expect(() => setTaskStatus(structuredClone(campaign), 1, 'complete', { runner: 'B' })).toThrow(/held by A/);
  expect(() => setTaskStatus(structuredClone(campaign), 1, 'complete', {})).toThrow(/held by A/);
  expect(setTaskStatus(structuredClone(campaign), 1, 'complete', { runner: 'A' }).status).toBe('complete');
  expect(setTaskStatus(structuredClone(campaign), 1, 'complete', { asUser: true }).status).toBe('complete');
});
