import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalFileFor } from '@ratchet/store';
import { describe, expect, test } from 'vitest';
import { addTasks, advancePhase, claimTask, completeCampaign, updateTask, createCampaign, inferPhase, readArchive, readCampaign, recordObservation, type CampaignOptions } from '../src/index.js';
import { tempDir } from './support/children.js';

const opts: CampaignOptions = { clock: () => new Date('2030-01-01T00:00:00.000Z') };
const plan = { objective: 'Ship it', tasks: [{ seq: '001', slug: 'build', delta: ['src/a.ts'], verify: 'npm test' }] };
const file = (root: string): string => join(root, '.ratchet', 'campaign.json');
/**
 * Rewrite campaign.json as an older Ratchet left it: no digest of our last write, and no entry in
 * the journal outside the project (which came later), so the file reads as never written by us.
 */
function handWrite(root: string, doc: unknown): void {
  writeFileSync(file(root), JSON.stringify(doc));
  rmSync(`${file(root)}.digest`, { force: true });
  rmSync(`${file(root)}.prev`, { force: true });
  const journal = journalFileFor(file(root));
  if (journal !== undefined) rmSync(journal, { force: true });
}

describe('FTL campaign phases (an fsm-core machine)', () => {
  test('EXPLORE -> PLAN -> BUILD -> OBSERVE -> COMPLETE, every change logged', async () => {
    const root = tempDir();
    expect((await createCampaign(root, 'Ship it', opts)).phase).toBe('EXPLORE');
    expect((await advancePhase(root, 'explored', opts)).phase).toBe('PLAN');
    expect((await addTasks(root, plan, opts)).campaign.phase).toBe('BUILD');
    expect((await recordObservation(root, opts)).phase).toBe('OBSERVE');
    const done = await completeCampaign(root, opts);
    expect(done.campaign.phase).toBe('COMPLETE');
    expect(done.campaign.phaseLog!.map((e) => `${e.from}>${e.event}>${e.to}`)).toEqual(['EXPLORE>explored>PLAN', 'PLAN>planned>BUILD', 'BUILD>observed>OBSERVE', 'OBSERVE>complete>COMPLETE']);
    expect((await readArchive(root)).entries[0]!.campaign.phase).toBe('COMPLETE');
  });

  test('complete is refused before the observer ran (force does not skip it); nothing is written', async () => {
    const root = tempDir();
    await createCampaign(root, 'Ship it', opts);
    await addTasks(root, plan, opts);
    const before = readFileSync(file(root), 'utf8');
    const err = await completeCampaign(root, { ...opts, force: true }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'illegal-transition' });
    expect((err as Error).message).toContain('ratchet memory observe');
    expect(readFileSync(file(root), 'utf8')).toBe(before);
    // Skipping needs a reason, and the reason is recorded.
    await expect(completeCampaign(root, { ...opts, skipObserve: '   ' })).rejects.toMatchObject({ code: 'invalid-argument' });
    const done = await completeCampaign(root, { ...opts, skipObserve: 'every task blocked on the same missing credential' });
    expect(done.campaign.phaseLog!.at(-2)).toMatchObject({ event: 'skip_observe', from: 'BUILD', to: 'OBSERVE', reason: 'every task blocked on the same missing credential' });
  });

  test('task work after an observation makes it stale: a claim or a status change goes back to BUILD', async () => {
    const root = tempDir();
    await createCampaign(root, 'Ship it', opts);
    await addTasks(root, plan, opts);
    await recordObservation(root, opts);
    await claimTask(root, 'r1', opts);
    expect((await readCampaign(root, opts)).phase).toBe('BUILD');
    await expect(completeCampaign(root, { ...opts, force: true })).rejects.toMatchObject({ code: 'illegal-transition' });
    await recordObservation(root, opts);
    await updateTask(root, 1, 'complete', { ...opts, runner: 'r1' });
    const c = await readCampaign(root, opts);
    expect(c.phase).toBe('BUILD');
    expect(c.phaseLog!.filter((e) => e.event === 'resumed')).toHaveLength(2);
    await recordObservation(root, opts);
    expect((await completeCampaign(root, opts)).campaign.phase).toBe('COMPLETE');
  });

  test('tasks added after an observation need a new one; illegal events are refused with the phase named', async () => {
    const root = tempDir();
    await createCampaign(root, 'Ship it', opts);
    await expect(recordObservation(root, opts)).rejects.toMatchObject({ code: 'illegal-transition' });
    await addTasks(root, plan, opts);
    await recordObservation(root, opts);
    await addTasks(root, { objective: 'more', tasks: [{ seq: '002', slug: 'more', delta: ['src/b.ts'], verify: 'npm test' }] }, opts);
    expect((await readCampaign(root, opts)).phase).toBe('BUILD');
    await expect(completeCampaign(root, opts)).rejects.toThrow(/phase BUILD/);
    await expect(advancePhase(root, 'explored', opts)).rejects.toMatchObject({ code: 'illegal-transition' });
  });

  test('a campaign written before phases keeps working: its phase is inferred on read and logged on the next write', async () => {
    const root = tempDir();
    await createCampaign(root, 'Ship it', opts);
    await addTasks(root, plan, opts);
    const doc = JSON.parse(readFileSync(file(root), 'utf8')) as Record<string, unknown>;
    delete doc.phase;
    delete doc.phaseLog;
    handWrite(root, doc);
    const read = await readCampaign(root, opts);
    expect(read.phase).toBe('BUILD');
    expect(read.phaseLog).toEqual([{ event: 'inferred', from: null, to: 'BUILD', at: '2030-01-01T00:00:00.000Z', reason: 'the campaign was written before phases existed' }]);
    await recordObservation(root, opts);
    expect((JSON.parse(readFileSync(file(root), 'utf8')) as { phaseLog: { event: string }[] }).phaseLog.map((e) => e.event)).toEqual(['inferred', 'observed']);
    expect(inferPhase({ status: 'active', tasks: [] })).toBe('EXPLORE');
    expect(inferPhase({ status: 'complete', tasks: [] })).toBe('COMPLETE');
  });

  test('a hand-edited phase that is not one is refused with its place', async () => {
    const root = tempDir();
    await createCampaign(root, 'Ship it', opts);
    const doc = JSON.parse(readFileSync(file(root), 'utf8')) as Record<string, unknown>;
    handWrite(root, { ...doc, phase: 'DONE', phaseLog: [{ event: 'teleport', from: null, to: 'COMPLETE', at: 'x' }] });
    const err = await readCampaign(root, opts).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation-error' });
    expect(String((err as Error).message)).toMatch(/expected one of "EXPLORE".*at \/phase/);
  });
});
