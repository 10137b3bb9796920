import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  CampaignError,
  PlanError,
  addTasks,
  campaignPaths,
  cascadeStatus,
  claimTask,
  completeCampaign,
  recordObservation,
  createCampaign,
  findSimilar,
  listReady,
  propagate,
  readArchive,
  readCampaign,
  readCascade,
  updateCampaign,
  updateTask,
  type CampaignOptions,
} from '../src/index.js';
import { tempDir } from './support/children.js';

let tick = 0;
const clock = (): Date => new Date(Date.UTC(2030, 0, 1, 0, 0, tick++));
const opts: CampaignOptions = { clock };

const plan = {
  objective: 'Add user auth',
  framework: 'fastapi',
  tasks: [
    { seq: '001', slug: 'spec', type: 'SPEC', delta: ['tests/test_auth.py'], verify: 'pytest --collect-only', depends: 'none' },
    { seq: '002', slug: 'impl', delta: ['app/auth.py'], verify: 'pytest', depends: '001' },
    { seq: '003', slug: 'docs', delta: ['docs/auth.md'], verify: 'test -f docs/auth.md', depends: '001' },
    { seq: '004', slug: 'verify', type: 'VERIFY', delta: ['app/auth.py'], verify: 'pytest', depends: ['002', '003'] },
  ],
};

async function started(): Promise<string> {
  const root = tempDir();
  await createCampaign(root, 'Add user auth', opts);
  await addTasks(root, plan, opts);
  return root;
}

describe('campaign lifecycle on disk', () => {
  test('create writes a versioned document through the store; a second create is refused while active', async () => {
    const root = tempDir();
    const c = await createCampaign(root, '  Add user auth  ', opts);
    expect(c).toMatchObject({ objective: 'Add user auth', status: 'active', tasks: [] });
    expect(c.id).toMatch(/^20300101T\d{6}Z-add-user-auth$/);
    const file = JSON.parse(readFileSync(join(root, '.ratchet', 'campaign.json'), 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({ $schema: expect.stringContaining('campaign.schema.json') as unknown, schemaVersion: 1, id: c.id });
    await expect(createCampaign(root, 'other', opts)).rejects.toMatchObject({ code: 'campaign-exists' });
  });

  test('commands without a campaign say how to start one', async () => {
    await expect(readCampaign(tempDir())).rejects.toMatchObject({ code: 'no-campaign', reason: expect.stringContaining('campaign create') as unknown });
  });

  test('add-tasks: a cycle is refused with its path and nothing is written', async () => {
    const root = tempDir();
    await createCampaign(root, 'x', opts);
    const before = readFileSync(join(root, '.ratchet', 'campaign.json'), 'utf8');
    const cyclic = { objective: 'x', tasks: [{ seq: 1, delta: ['a'], verify: 'v', depends: 2 }, { seq: 2, delta: ['a'], verify: 'v', depends: 1 }] };
    const err = await addTasks(root, cyclic, opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).graphOnly).toBe(true);
    expect((err as PlanError).problems[0]!.cycle).toEqual([1, 2, 1]);
    expect(readFileSync(join(root, '.ratchet', 'campaign.json'), 'utf8')).toBe(before);
  });

  test('ready, claim, legal transitions only, and dependencies gate the start', async () => {
    const root = await started();
    expect((await listReady(root)).map((t) => t.seq)).toEqual([1]);
    await expect(updateTask(root, 1, 'complete', opts)).rejects.toMatchObject({ code: 'illegal-transition', reason: expect.stringContaining('legal: in_progress, blocked') as unknown });
    await expect(updateTask(root, 2, 'in_progress', opts)).rejects.toMatchObject({ code: 'not-ready', reason: expect.stringContaining('waits for 001') as unknown });
    expect(await claimTask(root, 'r1', opts)).toMatchObject({ seq: 1, status: 'in_progress', runner: 'r1' });
    expect(await claimTask(root, 'r2', opts)).toBeUndefined();
    // A runner name is one printable line: a newline could forge a status line.
    for (const bad of ['', '  ', 'r1\nclaimed 002 for r9', 'r\u0000', 'r\u2028x', 'x'.repeat(201)]) {
      await expect(claimTask(root, bad, opts), JSON.stringify(bad)).rejects.toMatchObject({ code: 'invalid-argument' });
    }
    expect(await claimTask(root, 'builder 7 (host-a)', opts)).toBeUndefined();
    await updateTask(root, 1, 'complete', { ...opts, runner: 'r1' });
    await expect(updateTask(root, 1, 'pending', opts)).rejects.toMatchObject({ code: 'illegal-transition', reason: expect.stringContaining('final') as unknown });
    expect((await listReady(root)).map((t) => t.seq)).toEqual([2, 3]);
    await expect(updateTask(root, 9, 'blocked', opts)).rejects.toMatchObject({ code: 'unknown-task' });
  });

  test('a blocked task cascades: cascade-status is stuck, propagate-blocks records the root cause, then all_blocked', async () => {
    const root = await started();
    await claimTask(root, 'r1', opts);
    await updateTask(root, 1, 'blocked', { ...opts, runner: 'r1', reason: 'fixture missing' });
    const status = await readCascade(root);
    expect(status.state).toBe('stuck');
    expect(status.unreachable).toEqual([
      { seq: 2, blockedBy: [1], rootCause: 1 },
      { seq: 3, blockedBy: [1], rootCause: 1 },
      { seq: 4, blockedBy: [2, 3], rootCause: 1 },
    ]);
    expect((await propagate(root, opts)).map((u) => u.seq)).toEqual([2, 3, 4]);
    const c = await readCampaign(root);
    expect(c.tasks[0]).toMatchObject({ status: 'blocked', cascade: false, reason: 'fixture missing' });
    expect(c.tasks[3]).toMatchObject({ status: 'blocked', cascade: true, rootCause: 1, blockedBy: [2, 3] });
    expect(cascadeStatus(c.tasks).state).toBe('all_blocked');
    // Retrying the original failure is legal, and what it alone blocked goes back to pending.
    await updateTask(root, 1, 'pending', opts);
    const retried = await readCampaign(root);
    expect(retried.tasks[0]).not.toHaveProperty('cascade');
    expect(retried.tasks.map((t) => t.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(retried.tasks[3]).not.toHaveProperty('rootCause');
    expect(cascadeStatus(retried.tasks)).toMatchObject({ state: 'in_progress', ready: [1] });
  });

  test('complete archives with a summary, moves workspaces, frees the slot; find-similar finds it', async () => {
    const root = await started();
    mkdirSync(join(root, '.ratchet', 'workspace'), { recursive: true });
    writeFileSync(join(root, '.ratchet', 'workspace', '001_spec_active.xml'), '<workspace/>');
    await claimTask(root, 'r1', opts);
    await expect(completeCampaign(root, opts)).rejects.toMatchObject({ code: 'tasks-in-progress' });
    await updateTask(root, 1, 'complete', { ...opts, runner: 'r1' });
    await recordObservation(root, opts);
    const done = await completeCampaign(root, opts);
    expect(done.summary).toMatchObject({ total: 4, counts: { complete: 1, pending: 3, in_progress: 0, blocked: 0 }, deltaFiles: ['app/auth.py', 'docs/auth.md', 'tests/test_auth.py'] });
    expect(existsSync(join(root, '.ratchet', 'campaign.json'))).toBe(false);
    expect(readdirSync(join(root, '.ratchet', 'archive', done.campaign.id, 'workspace'))).toEqual(['001_spec_active.xml']);
    const { entries } = await readArchive(root);
    expect(entries.map((e) => e.campaign.status)).toEqual(['complete']);

    await createCampaign(root, 'Add user authentication with tokens', { ...opts, framework: 'fastapi' });
    await addTasks(root, plan, opts);
    const { similar } = await findSimilar(root);
    expect(similar).toHaveLength(1);
    expect(similar[0]!.score).toBeGreaterThanOrEqual(0.6);
    expect(similar[0]!.parts.delta).toBe(1);
    // An objective alone scores the objective; a framework given with it filters, a different one never matches.
    const other = await findSimilar(root, { objective: 'Add user auth' });
    expect(other.similar[0]!.parts.objective).toBe(1);
    expect((await findSimilar(root, { objective: 'Add user auth', framework: 'fastapi' })).similar).toHaveLength(1);
    expect((await findSimilar(root, { objective: 'Add user auth', framework: 'django' })).similar).toEqual([]);
    await updateCampaign(root, opts, (c) => {
      c.framework = 'django';
    });
    expect((await findSimilar(root)).similar).toEqual([]);
  });

  test('a corrupt campaign.json is reported with its place and never overwritten', async () => {
    const root = await started();
    const file = join(root, '.ratchet', 'campaign.json');
    const broken = readFileSync(file, 'utf8').replace('"pending"', '"pending",,');
    writeFileSync(file, broken);
    const err = (await claimTask(root, 'r1', opts).catch((e: unknown) => e)) as { code: string; line: number; path: string };
    expect(err).toMatchObject({ code: 'parse-error', path: file });
    expect(err.line).toBeGreaterThan(1);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    writeFileSync(file, broken.replace('"pending",,', '"done"'));
    await expect(claimTask(root, 'r1', opts)).rejects.toMatchObject({ code: 'validation-error' });
    writeFileSync(file, '{"schemaVersion":1,"__proto__":{"x":1}}');
    await expect(readCampaign(root)).rejects.toMatchObject({ code: 'unsafe-input' });
  });

  test('a hand-edited campaign.json whose graph is not a DAG is refused on every read, each problem at its place, never rewritten', async () => {
    const root = await started();
    const file = join(root, '.ratchet', 'campaign.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { tasks: { depends: number[] }[] };
    doc.tasks[1]!.depends = [1, 4]; // 002 -> 004 -> 002
    doc.tasks[2]!.depends = [1, 1, 99]; // twice, and a task that does not exist
    doc.tasks[3]!.depends = [2, 3, 4]; // itself
    const edited = JSON.stringify(doc, null, 2);
    writeFileSync(file, edited);
    const reads: [string, () => Promise<unknown>][] = [
      ['readCampaign', () => readCampaign(root)],
      ['listReady', () => listReady(root)],
      ['readCascade', () => readCascade(root)],
      ['claimTask', () => claimTask(root, 'r1', opts)],
      ['updateTask', () => updateTask(root, 1, 'in_progress', opts)],
      ['propagate', () => propagate(root, opts)],
      ['addTasks', () => addTasks(root, { objective: 'x', tasks: [{ seq: 9, delta: ['a'], verify: 'v' }] }, opts)],
      ['completeCampaign', () => completeCampaign(root, opts)],
    ];
    for (const [name, read] of reads) {
      const err = (await read().catch((e: unknown) => e)) as { code?: string; issues?: { pointer: string; code: string; line: number; column: number; message: string }[] };
      expect(err.code, name).toBe('validation-error');
      expect(err.issues!.map((i) => [i.pointer, i.code]), name).toEqual([
        ['/tasks/1/depends/1', 'cycle'],
        ['/tasks/2/depends/1', 'duplicate-dependency'],
        ['/tasks/2/depends/2', 'unknown-dependency'],
        ['/tasks/3/depends/2', 'self-dependency'],
      ]);
      expect(err.issues![0]!.message).toContain('dependency cycle: 002 -> 004 -> 002');
      // Placed on the offending value in the file the user edited.
      const lines = edited.split('\n');
      for (const i of err.issues!) expect(lines[i.line - 1]!.slice(i.column - 1)).toMatch(/^\d+/);
    }
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(existsSync(join(root, '.ratchet', 'archive'))).toBe(false);
    // A duplicate seq is a graph problem too.
    doc.tasks[1]!.depends = [1];
    doc.tasks[2]!.depends = [1];
    doc.tasks[3]!.depends = [1, 3];
    (doc.tasks[3] as unknown as { seq: number }).seq = 2;
    writeFileSync(file, JSON.stringify(doc, null, 2));
    await expect(listReady(root)).rejects.toMatchObject({ code: 'validation-error', issues: [expect.objectContaining({ pointer: '/tasks/3/seq', code: 'duplicate-seq' })] });
  });

  test('state and workspace directories outside the project are refused, also through a symlink', () => {
    const root = tempDir();
    expect(() => campaignPaths(root, { stateDir: '../elsewhere' })).toThrow(CampaignError);
    expect(() => campaignPaths(root, { workspaceDir: '/tmp' })).toThrow(/outside the project/);
    symlinkSync(tempDir(), join(root, 'link'));
    expect(() => campaignPaths(root, { workspaceDir: 'link/ws' })).toThrow(/symbolic link/);
    expect(campaignPaths(root, { workspaceDir: 'work/ws' }).workspace).toBe(join(root, 'work', 'ws'));
  });
});
