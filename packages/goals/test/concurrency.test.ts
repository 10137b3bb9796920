import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { defaultRegistry, openGoals, upsertGoal } from '../src/index.js';
import { AGENT, tempDir } from './support.js';

const worker = fileURLToPath(new URL('./fixtures/commit-worker.mjs', import.meta.url));
const pkg = fileURLToPath(new URL('..', import.meta.url));

function runWorker(statePath: string, barrier: string, turn: string): Promise<{ turn: string; first: string; final: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@ratchet/source', '--import', 'tsx', worker, statePath, barrier, turn], { cwd: pkg, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`worker ${turn} exited ${String(code)}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as { turn: string; first: string; final: number });
    });
  });
}

test('two processes committing against the same version: exactly one ConflictError, no update lost', async () => {
  const dir = tempDir('goals-race-');
  const statePath = join(dir, 'goals.json');
  const barrier = join(dir, 'barrier');
  mkdirSync(barrier);
  await openGoals(statePath).mutate({ actor: AGENT, op: 'setup' }, (tx) => upsertGoal(tx, { title: 'shared' }));
  const runs = [runWorker(statePath, barrier, 'turn-a'), runWorker(statePath, barrier, 'turn-b')];
  // Both have read version 1 before either may commit.
  while (!existsSync(join(barrier, 'ready-turn-a')) || !existsSync(join(barrier, 'ready-turn-b'))) await new Promise((r) => setTimeout(r, 5));
  writeFileSync(join(barrier, 'go'), '');
  const results = await Promise.all(runs);
  expect(results.map((r) => r.first).sort()).toEqual(['conflict', 'ok']);
  const state = await openGoals(statePath).read();
  expect(state.version).toBe(3);
  expect(state.actions.map((a) => a.title).sort()).toEqual(['from turn-a', 'from turn-b']);
  expect(state.turns.map((t) => t.id).sort()).toEqual(['turn-a', 'turn-b']);
  expect(state.audit.map((e) => [e.version, e.previous_version])).toEqual([[1, 0], [2, 1], [3, 2]]);
}, 30_000);

test('kill -9 in the middle of committing: the state stays whole (every turn all or nothing), the next writer takes over the lock', async () => {
  const dir = tempDir('goals-kill-');
  const statePath = join(dir, 'goals.json');
  const loop = fileURLToPath(new URL('./fixtures/commit-loop.mjs', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@ratchet/source', '--import', 'tsx', loop, statePath], { cwd: pkg, stdio: 'ignore' });
  const store = openGoals(statePath);
  // Let it commit a few turns, then kill it without warning, most likely inside a locked write.
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    if (existsSync(statePath) && (await store.read()).version >= 5) break;
  }
  child.kill('SIGKILL');
  await new Promise((r) => child.on('close', r));
  const after = await store.read();
  expect(after.turns).toHaveLength(after.version);
  expect(after.actions).toHaveLength(after.version);
  expect(after.audit.map((e) => e.version)).toEqual(Array.from({ length: after.version }, (_, i) => i + 1));
  // The dead process's lock (if it held one) does not block the next commit.
  const next = await store.commitTurn(defaultRegistry(), { turn_id: 'after-kill', expected_version: after.version, new_actions: [{ type: 'agent_task', title: 'after' }] }, { actor: AGENT });
  expect(next.version).toBe(after.version + 1);
}, 60_000);
