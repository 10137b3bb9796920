/**
 * A task taken over by a new holder (a lease that ran out, or a claim given back and claimed
 * again): the new holder's `createWorkspace` keeps the lost builder's live workspace as a lost
 * attempt (`{seq}_{slug}_lost.{n}.xml`, never live again) and starts attempt n+1, told where the
 * lost attempt is. The same holder asking twice is still refused, and the lost builder cannot
 * finish the new holder's workspace by naming itself.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { createFileBackend, type StorageBackend } from '@ratchet/store';
import {
  addTasks,
  claimTask,
  claimTaskLeased,
  completeCampaign,
  completeWorkspace,
  createCampaign,
  createWorkspace,
  readCampaignWorkspaces,
  recordObservation,
  updateTask,
  type CampaignOptions,
} from '../src/index.js';
import { tempDir } from './support/children.js';

const backends: StorageBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

async function project(): Promise<{ root: string; opts: CampaignOptions }> {
  const root = tempDir('campaign-takeover-');
  const backend = createFileBackend(root);
  backends.push(backend);
  const opts: CampaignOptions = { backend };
  await createCampaign(root, 'takeovers', opts);
  await addTasks(root, { tasks: [{ seq: 1, slug: 'route', delta: ['src/route.ts'], verify: 'true' }] }, opts);
  return { root, opts };
}

const files = (root: string): string[] => readdirSync(join(root, '.ratchet', 'workspace')).filter((n) => n.endsWith('.xml')).sort();

describe('a workspace after the task changed hands', () => {
  test('after a lease takeover, the new holder starts: the lost one is kept as history and named in its prior knowledge', async () => {
    const { root, opts } = await project();
    expect((await claimTaskLeased(root, 'A', 300, opts))?.task.seq).toBe(1);
    const lost = await createWorkspace(root, 1, opts);
    expect(lost.record.runner).toBe('A');
    await sleep(450);
    expect((await claimTaskLeased(root, 'B', 60_000, opts))?.task.seq).toBe(1);
    const next = await createWorkspace(root, 1, opts);
    expect(files(root)).toEqual(['001_route_active.xml', '001_route_lost.1.xml']);
    expect(next.record).toMatchObject({ runner: 'B', attempt: 2 });
    expect(next.record.priorKnowledge.failures).toEqual([
      expect.objectContaining({ name: 'attempt-001_route_lost.1', injected: false, trigger: expect.stringContaining('attempt 1 by A stopped before it finished') as unknown }),
    ]);
    expect(next.record.priorKnowledge.failures[0]!.fix).toContain('src/route.ts');
    // B asking again is refused as before: the live workspace is its own.
    await expect(createWorkspace(root, 1, opts)).rejects.toMatchObject({ code: 'workspace-exists' });
    // A, back, cannot deliver into B's workspace by naming itself.
    await expect(completeWorkspace(root, 1, 'done by A', { ...opts, runner: 'A' })).rejects.toMatchObject({ code: 'not-holder' });
    await completeWorkspace(root, 1, 'done by B', { ...opts, runner: 'B' });
    // The observer reads the lost attempt as history, not as a finished workspace.
    const { workspaces } = await readCampaignWorkspaces(root, opts);
    expect(workspaces.map((w) => [w.attempt ?? 1, w.status, w.live, w.lost ?? false])).toEqual([
      [1, 'active', false, true],
      [2, 'complete', true, false],
    ]);
    await updateTask(root, 1, 'complete', { ...opts, runner: 'B' });
    await recordObservation(root, opts);
    const done = await completeCampaign(root, opts);
    expect(readdirSync(done.workspacePath!).sort()).toEqual(['001_route_complete.xml', '001_route_lost.1.xml']);
  }, 30_000);

  test('a claim given back and claimed again (no lease): the new holder starts too', async () => {
    const { root, opts } = await project();
    delete opts.backend;
    expect((await claimTask(root, 'A', opts))?.seq).toBe(1);
    await createWorkspace(root, 1, opts);
    await updateTask(root, 1, 'pending', { ...opts, runner: 'A' });
    expect((await claimTask(root, 'B', opts))?.seq).toBe(1);
    const next = await createWorkspace(root, 1, opts);
    expect(next.record.attempt).toBe(2);
    expect(files(root)).toEqual(['001_route_active.xml', '001_route_lost.1.xml']);
  }, 30_000);
});
