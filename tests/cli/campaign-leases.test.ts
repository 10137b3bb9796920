/**
 * Leased claims through the real `ratchet` binary: two runners, a lease that expires (short lease,
 * real wait), a heartbeat that keeps it, a `kill -9`ed claimer whose task is taken over, and a
 * finish by a runner that lost its lease, refused naming who holds the task now.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, leaseOutlasting, ratchet, tempDir } from '../helpers.js';

function project(tasks = 2): string {
  const dir = tempDir('ratchet-leases-');
  const plan = { tasks: Array.from({ length: tasks }, (_, i) => ({ seq: i + 1, slug: `t${i + 1}`, delta: [`f${i}`], verify: 'true' })) };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  expect(ratchet(['campaign', 'create', 'leases'], { cwd: dir }).status).toBe(0);
  expect(ratchet(['campaign', 'add-tasks', 'plan.json'], { cwd: dir }).status).toBe(0);
  return dir;
}

interface Claimed {
  claimed: { seq: number; runner?: string; lostAttempts?: { runner: string; attempt: number }[] } | null;
  leaseUntil?: string;
  recovered?: { runner: string; attempt: number };
}

function claim(dir: string, runner: string, lease: string): Claimed {
  const r = ratchet(['--json', 'campaign', 'ready', '--claim', runner, '--lease', lease], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Claimed;
}

interface Status {
  tasks: { seq: number; status: string; runner?: string; lostAttempts?: unknown[] }[];
  claims: { seq: number; runner: string; expired: boolean }[];
  lostAttempts: { seq: number; runner: string; attempt: number }[];
}

const status = (dir: string): Status => JSON.parse(ratchet(['--json', 'campaign', 'status'], { cwd: dir }).stdout) as Status;

describe('campaign ready --claim R --lease', () => {
  test('two runners get different tasks; an expired lease is taken over and the lost attempt shows in status', async () => {
    const dir = project(2);
    // Long enough to outlast the two claims after it, however busy the machine.
    const a = claim(dir, 'A', `${leaseOutlasting(3)}ms`);
    expect(a.claimed?.seq).toBe(1);
    expect(claim(dir, 'B', '15m').claimed?.seq).toBe(2);
    expect(claim(dir, 'C', '15m').claimed).toBeNull();
    await sleep(Math.max(0, Date.parse(a.leaseUntil!) - Date.now() + 300));
    // Expired: status shows task 1 ready again, before anyone took it.
    const before = status(dir);
    expect(before.tasks.map((t) => [t.seq, t.status, t.runner ?? null])).toEqual([
      [1, 'pending', null],
      [2, 'in_progress', 'B'],
    ]);
    expect(before.claims).toEqual(expect.arrayContaining([expect.objectContaining({ seq: 1, runner: 'A', expired: true })]));
    const human = ratchet(['campaign', 'ready'], { cwd: dir });
    expect(human.stdout).toContain('001  t1');
    const taken = claim(dir, 'C', '15m');
    expect(taken.claimed?.seq).toBe(1);
    expect(taken.recovered).toMatchObject({ runner: 'A', attempt: 1 });
    const after = status(dir);
    expect(after.tasks[0]).toMatchObject({ status: 'in_progress', runner: 'C' });
    expect(after.lostAttempts).toEqual([expect.objectContaining({ seq: 1, runner: 'A', attempt: 1 })]);
    expect(ratchet(['campaign', 'status'], { cwd: dir }).stdout).toMatch(/lost attempt: 001 attempt 1 by A/);

    // A comes back and reports the task done: refused, naming C; the task is still C's.
    const late = ratchet(['campaign', 'update-task', '1', 'complete', '--runner', 'A'], { cwd: dir });
    expect(late.status).toBe(2);
    expect(late.stderr).toContain('A no longer holds its lease (C holds it now)');
    expect(status(dir).tasks[0]).toMatchObject({ status: 'in_progress', runner: 'C' });
    const hb = ratchet(['campaign', 'heartbeat', 'A'], { cwd: dir });
    expect(hb.status).toBe(2);
    expect(hb.stderr).toContain('001 (now held by C)');
    expect(ratchet(['campaign', 'update-task', '1', 'complete', '--runner', 'C'], { cwd: dir }).status).toBe(0);
  }, 300_000);

  test('heartbeats keep a lease alive past its original length', async () => {
    const dir = project(1);
    // Renewed every third of a lease: a heartbeat (a CLI process) is never a whole lease late.
    const lease = leaseOutlasting(2);
    expect(claim(dir, 'A', `${lease}ms`).claimed?.seq).toBe(1);
    for (let i = 0; i < 3; i++) {
      await sleep(lease / 3);
      const hb = ratchet(['campaign', 'heartbeat', 'A', '--lease', `${lease}ms`], { cwd: dir });
      expect(hb.stderr).toBe('');
      expect(hb.stdout).toMatch(/^renewed 001 t1 for A until /);
    }
    // Over a lease after the claim: still A's.
    expect(claim(dir, 'B', '15m').claimed).toBeNull();
    expect(status(dir).tasks[0]).toMatchObject({ status: 'in_progress', runner: 'A' });
  }, 300_000);

  test('a claimer killed with kill -9 while heartbeating: its task is taken over once the lease runs out', async () => {
    const dir = project(1);
    // A long-lived builder: claim, then heartbeat every 0.5 s until killed (each heartbeat a CLI
    // process, never a whole lease late).
    const lease = leaseOutlasting(2);
    const script = `"${process.execPath}" "${bin}" campaign ready --claim K --lease ${lease}ms || exit 9; while true; do "${process.execPath}" "${bin}" campaign heartbeat K --lease ${lease}ms >/dev/null || exit 8; sleep 0.5; done`;
    const child = spawn('sh', ['-c', script], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => void (out += c));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    for (let i = 0; i < 600 && !out.includes('claimed 001'); i++) await sleep(50);
    expect(out).toContain('claimed 001 t1 for K');
    // Alive and heartbeating: past its first lease, nobody else gets the task.
    await sleep(lease + 1000);
    expect(claim(dir, 'B', '15m').claimed).toBeNull();
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    // Within a lease of the kill, B gets it, with K's attempt recorded as lost.
    let taken: Claimed | undefined;
    for (const deadline = Date.now() + lease + 30_000; Date.now() < deadline && taken?.claimed == null; ) {
      await sleep(500);
      taken = claim(dir, 'B', '15m');
    }
    expect(taken?.claimed?.seq).toBe(1);
    expect(taken?.recovered?.runner).toBe('K');
    expect(status(dir).lostAttempts).toEqual([expect.objectContaining({ seq: 1, runner: 'K' })]);
  }, 300_000);

  test('after a takeover the new holder creates its workspace: the lost builder\'s is kept as a lost attempt, and the lost builder cannot finish the new one', async () => {
    const dir = project(1);
    // Long enough for A's workspace to be made while it holds the task, however busy the machine.
    const a = claim(dir, 'A', `${leaseOutlasting(2)}ms`);
    expect(a.claimed?.seq).toBe(1);
    expect(ratchet(['workspace', 'create', '1', '--runner', 'A', '--no-memory'], { cwd: dir }).status).toBe(0);
    await sleep(Math.max(0, Date.parse(a.leaseUntil!) - Date.now() + 300));
    expect(claim(dir, 'B', '15m').claimed?.seq).toBe(1);
    // Before the fix: exit 2, "task 001 already has a workspace: 001_t1_active.xml".
    const created = ratchet(['workspace', 'create', '1', '--runner', 'B', '--no-memory'], { cwd: dir });
    expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: '' });
    expect(created.stdout).toContain('created .ratchet/workspace/001_t1_active.xml (attempt 2; the lost one is kept beside it)');
    expect(created.stdout).toContain('attempt-001_t1_lost.1: attempt 1 by A stopped before it finished');
    expect(readdirSync(join(dir, '.ratchet/workspace')).sort()).toEqual(['001_t1_active.xml', '001_t1_lost.1.xml']);
    const late = ratchet(['workspace', 'complete', '1', '--runner', 'A', '--delivered', 'mine'], { cwd: dir });
    expect(late.status).toBe(2);
    expect(late.stderr).toContain("workspace 001_t1_active is B's");
    expect(ratchet(['workspace', 'list'], { cwd: dir }).stdout).toMatch(/001_t1 #1 \(lost\) +lost/);
    expect(ratchet(['workspace', 'complete', '1', '--runner', 'B', '--delivered', 'route done'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['campaign', 'update-task', '1', 'complete', '--runner', 'B'], { cwd: dir }).status).toBe(0);
  }, 120_000);

  test('bad input: a malformed lease, a heartbeat without a runner or claims, exit 2 and nothing claimed', () => {
    const dir = project(1);
    for (const lease of ['', '15', '1x', '-5m', '99999999h', '5 m']) {
      const r = ratchet(['campaign', 'ready', '--claim', 'A', '--lease', lease], { cwd: dir });
      expect({ lease, status: r.status }).toEqual({ lease, status: 2 });
    }
    expect(status(dir).tasks[0]!.status).toBe('pending');
    expect(ratchet(['campaign', 'heartbeat'], { cwd: dir }).status).toBe(2);
    const none = ratchet(['campaign', 'heartbeat', 'nobody'], { cwd: dir });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('nobody holds no live leased claim');
  }, 180_000);
});
