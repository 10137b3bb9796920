/**
 * Real processes: 8 builders calling claim on one campaign. Every task must be claimed exactly once
 * (the store's lock serialises the read-modify-writes; FTL's flock+rename race let two writers win).
 */
import { describe, expect, test } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { addTasks, blockWorkspace, createCampaign, createWorkspace, readCampaign, updateTask } from '../src/index.js';
import { compileForChildProcesses, runWorker, tempDir } from './support/children.js';

describe('8 processes claiming from one campaign', () => {
  test('independent tasks: every one claimed exactly once, by exactly one runner', async () => {
    const dir = await compileForChildProcesses();
    const root = tempDir();
    await createCampaign(root, 'parallel claims');
    const tasks = Array.from({ length: 32 }, (_, i) => ({ seq: i + 1, delta: [`f${i}`], verify: 'true' }));
    await addTasks(root, { objective: 'parallel claims', tasks });
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => runWorker(dir, 'claim', [root, `r${w}`, 'keep'])));
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const claimed = results.flatMap((r) => r.stdout.split('\n').filter((l) => l.startsWith('claimed ')).map((l) => Number(l.slice(8))));
    expect(claimed.sort((a, b) => a - b)).toEqual(tasks.map((t) => t.seq));
    const after = await readCampaign(root);
    expect(after.tasks.every((t) => t.status === 'in_progress')).toBe(true);
    // The runner recorded in the file is the process that printed the claim.
    for (const [w, r] of results.entries()) for (const l of r.stdout.split('\n').filter((x) => x.startsWith('claimed '))) expect(after.tasks[Number(l.slice(8)) - 1]!.runner).toBe(`r${w}`);
  }, 60_000);

  test('a DAG completed as it goes: tasks become ready as parents finish, still each claimed once', async () => {
    const dir = await compileForChildProcesses();
    const root = tempDir();
    await createCampaign(root, 'dag claims');
    const tasks = Array.from({ length: 16 }, (_, i) => ({ seq: i + 1, delta: [`f${i}`], verify: 'true', depends: i < 4 ? 'none' : [i - 3, ...(i % 2 ? [i - 1] : [])] }));
    await addTasks(root, { objective: 'dag claims', tasks });
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => runWorker(dir, 'claim', [root, `r${w}`, 'complete'])));
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const claimed = results.flatMap((r) => r.stdout.split('\n').filter((l) => l.startsWith('claimed ')).map((l) => Number(l.slice(8))));
    // A worker stops when nothing is ready at that moment, so some may stop early; the rest finish.
    expect(new Set(claimed).size).toBe(claimed.length);
    const after = await readCampaign(root);
    expect(after.tasks.filter((t) => t.status === 'complete').map((t) => t.seq).sort((a, b) => a - b)).toEqual(claimed.sort((a, b) => a - b));
  }, 60_000);

  test('6 processes retrying one blocked task at once: one new attempt, the failed one kept once', async () => {
    const dir = await compileForChildProcesses();
    const root = tempDir();
    await createCampaign(root, 'retry race');
    await addTasks(root, { objective: 'retry race', tasks: [{ seq: 1, slug: 'flaky', delta: ['f'], verify: 'true' }] });
    await createWorkspace(root, 1);
    await blockWorkspace(root, 1, 'flaky network');
    await updateTask(root, 1, 'blocked', { reason: 'flaky network' });
    await updateTask(root, 1, 'pending');
    const results = await Promise.all(Array.from({ length: 6 }, () => runWorker(dir, 'create-workspace', [root, '1'])));
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = results.map((r) => r.stdout.trim()).sort();
    expect(lines).toEqual(['created 001_flaky_active.xml', ...Array.from({ length: 5 }, () => 'refused workspace-exists')]);
    expect(readdirSync(join(root, '.ratchet', 'workspace')).filter((n) => n.endsWith('.xml')).sort()).toEqual(['001_flaky_active.xml', '001_flaky_blocked.1.xml']);
  }, 60_000);
});
