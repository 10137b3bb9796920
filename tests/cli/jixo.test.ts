import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, examples, leaseOutlasting, ratchet, tempDir } from '../helpers.js';

/** `ratchet jixo lock` and `unlock` are separate processes: the lock lives in `<log>.lock` between them. */

const LOG = '---\ntitle: "Docs"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending\n\n## Work Log\n';

function project(): string {
  const dir = tempDir('ratchet-jixo-');
  writeFileSync(join(dir, 'docs.job.md'), '---\nname: docs\n---\n\nWrite docs.\n');
  writeFileSync(join(dir, 'docs.log.md'), LOG);
  return dir;
}

const holder = (dir: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, 'docs.log.md.lock'), 'utf8')) as Record<string, unknown>;
const json = (out: string): Record<string, unknown> => JSON.parse(out) as Record<string, unknown>;

/** Start `ratchet ...` in the background; resolves with its exit code and output. */
function background(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('ratchet jixo lock/unlock across processes', () => {
  test('the lock outlives the lock command, blocks others until unlock, and the waiter gets the fresh content', async () => {
    const dir = project();
    const locked = ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'alice'], { cwd: dir });
    expect(locked.status, locked.stderr).toBe(0);
    expect(locked.stdout).toBe(LOG);
    // The lock command has exited; the lock file names the holder.
    expect(holder(dir)).toMatchObject({ runner: 'alice', host: hostname(), detached: true, pid: expect.any(Number) as number, time: expect.any(String) as string });

    // Another runner waits for it (and times out), and cannot unlock it.
    const timedOut = ratchet(['--json', 'jixo', 'lock', 'docs.log.md', '--runner', 'bob', '--timeout', '300'], { cwd: dir });
    expect(timedOut.status).toBe(2); // as every lock timeout
    expect(json(timedOut.stdout)).toMatchObject({ ok: false, error: { code: 'lock-timeout', message: expect.stringMatching(/^timed out after 300 ms waiting for the lock/) as string } });
    const refused = ratchet(['--json', 'jixo', 'unlock', 'docs.log.md', '--runner', 'bob'], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(json(refused.stdout)).toMatchObject({ error: { code: 'lock-not-held' } });
    expect(holder(dir)).toMatchObject({ runner: 'alice' });

    // bob waits in the background while alice commits under her lock and unlocks.
    const waiting = background(['--json', 'jixo', 'lock', 'docs.log.md', '--runner', 'bob', '--timeout', '30000'], dir);
    await new Promise((r) => setTimeout(r, 300));
    const commit = ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'alice'], { cwd: dir });
    expect(commit.status, commit.stderr).toBe(0);
    expect(ratchet(['jixo', 'unlock', 'docs.log.md', '--runner', 'alice'], { cwd: dir }).status).toBe(0);
    const bob = await waiting;
    expect(bob.status, bob.stderr).toBe(0);
    const got = json(bob.stdout) as { content: string; holder: { runner: string } };
    expect(got.holder.runner).toBe('bob');
    expect(got.content).toContain('- [ ] 1. Intro\n  - status: Locked\n  - runner: alice\n');
    expect(ratchet(['jixo', 'unlock', 'docs.log.md', '--runner', 'bob'], { cwd: dir }).status).toBe(0);
    expect(existsSync(join(dir, 'docs.log.md.lock'))).toBe(false);
  });

  test('kill -9 of the process that owns a runner\'s lock: the next runner takes it over at once', async () => {
    const dir = project();
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const taken = ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'victim'], { cwd: dir, env: { RATCHET_JIXO_OWNER_PID: String(owner.pid) } });
    expect(taken.status, taken.stderr).toBe(0);
    expect(holder(dir)).toMatchObject({ runner: 'victim', ownerPid: owner.pid });
    // While the owner lives, the lock holds.
    expect(ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'next', '--timeout', '300'], { cwd: dir }).status).toBe(2);
    owner.kill('SIGKILL');
    await new Promise((r) => owner.on('exit', r));
    const next = ratchet(['--json', 'jixo', 'lock', 'docs.log.md', '--runner', 'next', '--timeout', '5000'], { cwd: dir });
    expect(next.status, next.stderr).toBe(0);
    expect(holder(dir)).toMatchObject({ runner: 'next' });
    expect(ratchet(['jixo', 'unlock', 'docs.log.md', '--runner', 'victim'], { cwd: dir }).status).toBe(1);
  });

  test('a holder on another host is not presumed dead before --stale-after', () => {
    const dir = project();
    const old = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(join(dir, 'docs.log.md.lock'), JSON.stringify({ pid: 4242, host: 'far-away-host', time: old, token: 'f0f0f0f0f0f0f0f0', runner: 'far' }));
    expect(ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'me', '--timeout', '300'], { cwd: dir }).status).toBe(2);
    expect(ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'me', '--timeout', '300', '--stale-after', '120000'], { cwd: dir }).status).toBe(2);
    const after = ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'me', '--timeout', '3000', '--stale-after', '30000'], { cwd: dir });
    expect(after.status, after.stderr).toBe(0);
    expect(holder(dir)).toMatchObject({ runner: 'me', host: hostname() });
  });

  test('triage treats the --active list as the truth for a lease-less task lock (older logs): a runner not in it is released', () => {
    const dir = project();
    // A Locked task as logs written before task leases have it: no leaseUntil. (The log lock is
    // another matter: a list never breaks it, see jixo-outer-loop.test.ts.)
    writeFileSync(join(dir, 'docs.log.md'), LOG.replace('  - status: Pending\n- [ ] 2.', '  - status: Locked\n  - runner: crashed\n- [ ] 2.'));
    const t = ratchet(['--json', 'jixo', 'triage', 'docs.job.md', '--runner', 'fresh', '--active', 'other'], { cwd: dir });
    expect(t.status, t.stderr).toBe(0);
    expect(json(t.stdout)).toMatchObject({ kind: 'role', role: 'Runner', taskId: '1', staleLocks: ['1'] });
    expect(readFileSync(join(dir, 'docs.log.md'), 'utf8')).toContain('- [ ] 1. Intro\n  - status: Pending\n- [ ] 2.');
  });

  test('a leased task lock is not released for a runner missing from --active (it may run on another host) until its lease expires', () => {
    const dir = project();
    expect(ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'elsewhere'], { cwd: dir }).status).toBe(0);
    const t = ratchet(['--json', 'jixo', 'triage', 'docs.job.md', '--runner', 'fresh', '--active', 'other'], { cwd: dir });
    expect(t.status, t.stderr).toBe(0);
    expect(json(t.stdout)).toMatchObject({ kind: 'role', role: 'Runner', taskId: '2', staleLocks: [] });
    expect(readFileSync(join(dir, 'docs.log.md'), 'utf8')).toContain('- status: Locked\n  - runner: elsewhere\n  - leaseUntil: ');
  });
});

describe('ratchet jixo run with the scripted agent, every command a real process', () => {
  test('two runners finish the job: one plans while the other stands by, each task completed once', () => {
    const dir = tempDir('ratchet-jixo-run-');
    writeFileSync(join(dir, 'docs.job.md'), readFileSync(join(examples, 'jixo/docs.job.md'), 'utf8'));
    const agent = `node ${join(examples, 'jixo/fake-agent.mjs')}`;
    const r = ratchet(['--json', 'jixo', 'run', 'docs.job.md', '--agent', agent, '--runners', '2', '--max-loops', '8'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ status: 'completed', progress: 1, exit: { code: 0 } });
    expect(r.stderr).not.toContain('crashed');
    expect(r.stderr).toMatch(/is the one to plan/);
    const log = readFileSync(join(dir, 'docs.log.md'), 'utf8');
    for (const id of ['1.1', '1.2', '1.3']) expect(log.match(new RegExp(`- \\*\\*Objective\\*\\*: Task ${id.replace('.', '\\.')}\\. `, 'g'))).toHaveLength(1);
    expect(log.match(/- \*\*Role\*\*: Planner/g)).toHaveLength(1);
  }, 120_000);
});

describe('ratchet jixo run: agent timeout and run quota', () => {
  test('a hung agent is killed after --agent-timeout, its task back to Pending; the spent --max-runs quota stops the job (exit 1, nothing hangs)', () => {
    const dir = project();
    const r = ratchet(['jixo', 'run', 'docs.job.md', '--agent', 'sleep 60', '--runners', '2', '--max-runs', '2', '--agent-timeout', '500ms'], { cwd: dir, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/timed out after 500 ms: killed, task 1 back to Pending/);
    expect(r.stderr).toMatch(/timed out after 500 ms: killed, task 2 back to Pending/);
    expect(r.stdout).toContain('quota: the turn quota is used up: 2 agent runs of 2 (--max-runs), and the job is not finished (progress 0%)');
    const log = readFileSync(join(dir, 'docs.log.md'), 'utf8');
    expect(log).not.toContain('status: Locked');
    expect(log.match(/- \*\*Result\*\*: Pending/g)).toHaveLength(2);
    expect(existsSync(join(dir, 'docs.log.md.lock'))).toBe(false);
  }, 60_000);

  test('a malformed --agent-timeout or --max-runs is a usage error (exit 2) and nothing starts', () => {
    const dir = project();
    for (const bad of [['--agent-timeout', '5y'], ['--agent-timeout', '0s'], ['--agent-timeout', '-1'], ['--max-runs', '0']]) {
      const r = ratchet(['jixo', 'run', 'docs.job.md', '--agent', 'touch started', ...bad], { cwd: dir });
      expect(r.status, bad.join(' ')).toBe(2);
      expect(r.stderr).toMatch(bad[0] === '--agent-timeout' ? /--agent-timeout must be a duration/ : /--max-runs must be an integer >= 1/);
      expect(existsSync(join(dir, 'started'))).toBe(false);
    }
    expect(readFileSync(join(dir, 'docs.log.md'), 'utf8')).toBe(LOG);
  });
});

describe('ratchet jixo triage reads the runners a live jixo run published', () => {
  const lockedBy = (runner: string) => LOG.replace('- [ ] 1. Intro\n  - status: Pending', `- [ ] 1. Intro\n  - status: Locked\n  - runner: ${runner}`);
  const publish = (dir: string, ownerPid: number, runners: string[]) => writeFileSync(join(dir, 'docs.log.md.runners'), JSON.stringify({ ownerPid, host: hostname(), runners }));

  test('a runner started after this agent (not in its --active snapshot) keeps its Locked task; the agent is told another task', () => {
    const dir = project();
    writeFileSync(join(dir, 'docs.log.md'), lockedBy('docs-late-001'));
    publish(dir, process.pid, ['docs-early-001', 'docs-late-001']);
    const r = ratchet(['--json', 'jixo', 'triage', 'docs.job.md', '--runner', 'docs-early-001', '--active', ''], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ kind: 'role', role: 'Runner', taskId: '2', staleLocks: [] });
    expect(readFileSync(join(dir, 'docs.log.md'), 'utf8')).toContain('  - runner: docs-late-001');
  });

  test('a list left by a dead jixo run, or one that does not parse, is ignored: the lock is stale and released', () => {
    for (const write of [(dir: string) => publish(dir, 2 ** 22 + 12345, ['docs-late-001']), (dir: string) => writeFileSync(join(dir, 'docs.log.md.runners'), '{"ownerPid": ')]) {
      const dir = project();
      writeFileSync(join(dir, 'docs.log.md'), lockedBy('docs-late-001'));
      write(dir);
      const r = ratchet(['--json', 'jixo', 'triage', 'docs.job.md', '--runner', 'docs-early-001', '--active', ''], { cwd: dir });
      expect(r.status, r.stderr).toBe(0);
      expect(json(r.stdout)).toMatchObject({ kind: 'role', role: 'Runner', taskId: '1', staleLocks: ['1'] });
    }
  });
});

describe('ratchet jixo task lock --lease', () => {
  test('another runner is refused until the lease expires, then takes the task over with the lost attempt logged', async () => {
    const dir = project();
    // Long enough to outlast the two commands after it, however busy the machine.
    const first = ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'gone', '--lease', `${leaseOutlasting(3)}ms`], { cwd: dir });
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(join(dir, 'docs.log.md'), 'utf8')).toMatch(/- runner: gone\n {2}- leaseUntil: \d{4}-\d\d-\d\dT[\d:.]+Z\n/);
    const listed = json(ratchet(['--json', 'jixo', 'task', 'list', 'docs.log.md'], { cwd: dir }).stdout) as { tasks: { id: string; leaseUntil: string | null }[] };
    expect(listed.tasks[0]!.leaseUntil).toMatch(/Z$/);
    const early = ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'next'], { cwd: dir });
    expect(early.status).toBe(1);
    expect(early.stderr).toMatch(/locked by gone until/);
    const until = Date.parse(/leaseUntil: (\S+)/.exec(readFileSync(join(dir, 'docs.log.md'), 'utf8'))![1]!);
    await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now()) + 200));
    const late = ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'next'], { cwd: dir });
    expect(late.status, late.stderr).toBe(0);
    const text = readFileSync(join(dir, 'docs.log.md'), 'utf8');
    expect(text).toContain('- runner: next');
    expect(text).toMatch(/Lost attempt: runner gone held this task until its lease expired/);
  }, 300_000);

  test.each(['soon', '0', '50ms', '8d', '-5m'])('a bad --lease (%s) exits 2 and writes nothing', (lease) => {
    const dir = project();
    const r = ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'a', '--lease', lease], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--lease must be a duration/);
    expect(readFileSync(join(dir, 'docs.log.md'), 'utf8')).toBe(LOG);
    expect(ratchet(['jixo', 'run', 'docs.job.md', '--agent', 'true', '--lease', lease], { cwd: dir }).status).toBe(2);
  });
});
