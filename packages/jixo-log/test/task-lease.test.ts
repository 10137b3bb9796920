/**
 * Task locks with leases: a Locked task carries `leaseUntil:`; once it has passed, the task is
 * recoverable by any runner on any host (the lost attempt goes to the Work Log), before it nobody
 * else can take it, and `jixo run` renews the leases of its agents' tasks. Logs without a lease
 * read and behave as before (stale only when the runner is not active).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  findTask,
  lockTask,
  parseJobStrict,
  parseLog,
  parseLogStrict,
  readLogFile,
  releaseStaleLocks,
  renewTaskLeases,
  runJob,
  serializeLog,
  triage,
  updateLogFile,
  type LogFile,
} from '../src/index.js';

const T0 = '2030-01-01T00:00:00.000Z';
const at = (ms: number): string => new Date(Date.parse(T0) + ms).toISOString();
const job = parseJobStrict('---\nname: j\n---\n\nGoal.\n');
const LOG = `---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Pending\n- [ ] 2. b\n  - status: Pending\n  - dependsOn: 1\n\n## Work Log\n`;

describe('the leaseUntil sub-bullet', () => {
  test('a lock writes it; it reads back and round-trips byte for byte, and finishing drops it', () => {
    const locked = lockTask(parseLogStrict(LOG), '1', 'r1', { now: T0, leaseMs: 90_000 });
    const text = serializeLog(locked);
    expect(text).toContain('- [ ] 1. a\n  - status: Locked\n  - runner: r1\n  - leaseUntil: 2030-01-01T00:01:30.000Z\n');
    expect(serializeLog(parseLogStrict(text))).toBe(text);
    expect(findTask(parseLogStrict(text.replace(/\n/g, '\r\n')), '1').leaseUntil).toBe('2030-01-01T00:01:30.000Z');
    // Without a lease length the default is 10 minutes.
    expect(findTask(lockTask(parseLogStrict(LOG), '1', 'r1', { now: T0 }), '1').leaseUntil).toBe(at(600_000));
  });

  test.each([
    ['not a time', 'tomorrow'],
    ['a local time', '2030-01-01T00:00:00'],
    ['an offset', '2030-01-01T00:00:00+02:00'],
    ['an impossible date', '2030-13-45T00:00:00.000Z'],
    ['empty', ''],
  ])('a leaseUntil that is %s is an error naming the line, never "no lease"', (_what, value) => {
    const text = LOG.replace('  - status: Pending\n- [ ] 2.', `  - status: Locked\n  - runner: r1\n  - leaseUntil: ${value}\n- [ ] 2.`);
    const { diagnostics } = parseLog(text);
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => [d.rule, d.line])).toEqual([['bad-lease', 11]]);
    expect(() => parseLogStrict(text, 'x.log.md')).toThrow(/x\.log\.md:11/);
  });

  test('a second leaseUntil is a duplicate field', () => {
    const text = LOG.replace('  - status: Pending\n- [ ] 2.', `  - status: Locked\n  - runner: r1\n  - leaseUntil: ${T0}\n  - leaseUntil: ${T0}\n- [ ] 2.`);
    expect(parseLog(text).diagnostics.map((d) => d.rule)).toContain('duplicate-field');
  });
});

/** A log with task 1 Locked by `runner`, with or without a lease. */
function lockedBy(runner: string, leaseUntil?: string): LogFile {
  return parseLogStrict(LOG.replace('  - status: Pending\n- [ ] 2.', `  - status: Locked\n  - runner: ${runner}\n${leaseUntil !== undefined ? `  - leaseUntil: ${leaseUntil}\n` : ''}- [ ] 2.`));
}

describe('leased task locks, judged by the lease alone', () => {
  test('before the lease: no other runner (whatever its active list) may take the task or release it', () => {
    const log = lockedBy('far-away', at(60_000));
    const d = triage({ log, job, runner: 'near', active: [], claiming: true, now: Date.parse(at(59_999)) });
    expect(d).toMatchObject({ kind: 'exit', code: 2, staleLocks: [] });
    expect(releaseStaleLocks(log, ['near'], { now: at(59_999) }).released).toEqual([]);
    expect(() => lockTask(log, '1', 'near', { now: at(59_999) })).toThrow(/locked by far-away until 2030-01-01T00:01:00.000Z/);
  });

  test('after the lease: the task is stale for everyone, goes back to Pending, and the lost attempt is in the Work Log', () => {
    const log = lockedBy('far-away', at(60_000));
    const d = triage({ log, job, runner: 'near', active: ['far-away'], claiming: true, now: Date.parse(at(60_000)) });
    // Even a runner listed as active has lost a lease it did not renew.
    expect(d).toMatchObject({ kind: 'role', role: 'Runner', taskId: '1', staleLocks: ['1'] });
    const { log: released, released: ids } = releaseStaleLocks(log, ['near', 'far-away'], { now: at(61_000) });
    expect(ids).toEqual(['1']);
    expect(findTask(released, '1')).toMatchObject({ status: 'Pending' });
    expect(findTask(released, '1').runner).toBeUndefined();
    expect(findTask(released, '1').leaseUntil).toBeUndefined();
    expect(released.workLog[0]).toMatchObject({ role: 'Runner', objective: 'Task 1. a', result: 'Pending' });
    expect(released.workLog[0]!.summary).toMatch(/runner far-away held this task until its lease expired at 2030-01-01T00:01:00.000Z.*recovered at 2030-01-01T00:01:01.000Z/);
    expect(released.workLog[0]!.blocker).toBeUndefined();
    // lockTask takes an expired lease over directly, recording the same lost attempt.
    const taken = lockTask(log, '1', 'near', { now: at(61_000), leaseMs: 1000, job: 'docs' });
    expect(taken.workLog[0]!.job).toBe('docs');
    expect(findTask(taken, '1')).toMatchObject({ status: 'Locked', runner: 'near', leaseUntil: at(62_000) });
    expect(taken.workLog[0]!.summary).toMatch(/Lost attempt: runner far-away/);
    // What the lost runner commits afterwards is refused.
    expect(() => renewTaskLeases(taken, 'far-away', 1000, { now: at(61_500) }).renewed).not.toThrow();
    expect(renewTaskLeases(taken, 'far-away', 1000, { now: at(61_500) }).renewed).toEqual([]);
  });

  test('the holder itself is never its own stale lock', () => {
    const d = triage({ log: lockedBy('me', at(1)), job, runner: 'me', active: [], claiming: true, now: Date.parse(at(10_000)) });
    expect(d).toMatchObject({ kind: 'role', role: 'Runner', taskId: '1', staleLocks: [] });
  });

  test('renewal moves the lease from now; an already expired lease is not renewed (it may be taken over)', () => {
    const log = lockedBy('r1', at(1000));
    const { log: renewed, renewed: ids } = renewTaskLeases(log, 'r1', 5000, { now: at(900) });
    expect(ids).toEqual(['1']);
    expect(findTask(renewed, '1').leaseUntil).toBe(at(5900));
    expect(triage({ log: renewed, job, runner: 'other', active: [], claiming: true, now: Date.parse(at(5000)) })).toMatchObject({ kind: 'exit', code: 2 });
    expect(renewTaskLeases(log, 'r1', 5000, { now: at(1000) }).renewed).toEqual([]);
    expect(renewTaskLeases(log, 'someone-else', 5000, { now: at(900) }).renewed).toEqual([]);
    expect(() => renewTaskLeases(log, 'r1', 0, { now: at(900) })).toThrow(/positive/);
  });

  test('older logs without a lease read as before: never stale by time, stale when the runner is not active, no lost-attempt entry', () => {
    const log = lockedBy('old-runner');
    const far = Date.parse('2999-01-01T00:00:00.000Z');
    expect(triage({ log, job, runner: 'x', active: ['old-runner'], claiming: true, now: far })).toMatchObject({ kind: 'exit', code: 2, staleLocks: [] });
    expect(triage({ log, job, runner: 'x', active: [], claiming: true, now: far })).toMatchObject({ kind: 'role', taskId: '1', staleLocks: ['1'] });
    const { log: released } = releaseStaleLocks(log, [], { now: at(0) });
    expect(findTask(released, '1').status).toBe('Pending');
    expect(released.workLog).toHaveLength(0);
    // Read and written back unchanged: no lease is invented for it.
    expect(serializeLog(log)).not.toContain('leaseUntil');
  });
});

const holder = fileURLToPath(new URL('./workers/task-holder.mjs', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));

async function jobDir(): Promise<{ log: string; job: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-task-lease-'));
  await writeFile(join(dir, 'j.job.md'), '---\nname: j\n---\n\nGoal.\n');
  await writeFile(join(dir, 'j.log.md'), LOG);
  return { log: join(dir, 'j.log.md'), job: join(dir, 'j.job.md') };
}

/** Another runner (think: on another host, so its active list knows nothing of the first) claims. */
async function claimAs(log: string, runner: string): Promise<string | undefined> {
  const { result } = await updateLogFile<string>(log, (l) => {
    const nowMs = Date.now();
    const d = triage({ log: l, job, runner, active: [], claiming: true, now: nowMs });
    const now = new Date(nowMs).toISOString();
    if (d.kind !== 'role' || d.role !== 'Runner') return d.staleLocks.length > 0 ? releaseStaleLocks(l, [runner], { now }).log : undefined;
    return { log: lockTask(releaseStaleLocks(l, [runner], { now }).log, d.taskId!, runner, { now, leaseMs: 60_000 }), result: d.taskId! };
  });
  return result;
}

describe.skipIf(!built && !process.env.CI)('real processes', () => {
  test('a runner process killed with SIGKILL holding a task: nobody takes it before its lease, another runner does after', async () => {
    const { log, job: jobPath } = await jobDir();
    // Long enough to outlast the kill and the refused claim after it on a busy machine.
    const leaseMs = 6_000;
    const child = spawn(process.execPath, [holder, log, jobPath, 'doomed', String(leaseMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    for (let i = 0; i < 600 && !out.includes('\n'); i++) await sleep(50);
    expect(JSON.parse(out), err).toEqual({ locked: '1' });
    const lockedAt = Date.now();
    const leaseUntil = findTask((await readLogFile(log)).log, '1').leaseUntil!;
    child.kill('SIGKILL');
    await exited;
    // Before the lease: the dead runner still holds it (no process check can see a pid on another host).
    expect(await claimAs(log, 'rescuer')).toBeUndefined();
    expect(findTask((await readLogFile(log)).log, '1')).toMatchObject({ status: 'Locked', runner: 'doomed' });
    expect(Date.now()).toBeLessThan(Date.parse(leaseUntil));
    // After the lease: taken over, and the lost attempt recorded.
    await sleep(Math.max(0, Date.parse(leaseUntil) - Date.now()) + 100);
    expect(Date.now() - lockedAt).toBeGreaterThanOrEqual(leaseMs - 500);
    expect(await claimAs(log, 'rescuer')).toBe('1');
    const after = parseLogStrict(await readFile(log, 'utf8'));
    expect(findTask(after, '1')).toMatchObject({ status: 'Locked', runner: 'rescuer' });
    expect(after.workLog).toHaveLength(1);
    expect(after.workLog[0]!.summary).toContain(`runner doomed held this task until its lease expired at ${leaseUntil}`);
  }, 60_000);

  test('jixo run renews its agent\'s task lease: a runner elsewhere cannot take the task for three leases and more', async () => {
    const { log, job: jobPath } = await jobDir();
    // Leases long enough that a renewal (every third of one) is never late on a busy machine, with
    // the agent outliving several of them.
    const leaseMs = 1500;
    const attempts: (string | undefined)[] = [];
    const leases = new Set<string>();
    let running = true;
    const run = runJob({ jobPath, agent: `"${process.execPath}" -e "setTimeout(() => {}, 6000)"`, runners: 1, maxLoops: 1, lockLeaseMs: leaseMs }).finally(() => (running = false));
    await sleep(300);
    while (running) {
      const seen = findTask((await readLogFile(log)).log, '1');
      if (seen.status === 'Locked' && running) {
        leases.add(seen.leaseUntil!);
        attempts.push(await claimAs(log, 'elsewhere'));
      }
      await sleep(100);
    }
    await run;
    // The agent ran 6 s, four leases: every claim from elsewhere was refused, and the lease moved on.
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    expect(attempts.every((a) => a === undefined)).toBe(true);
    expect(leases.size).toBeGreaterThanOrEqual(3);
    const final = parseLogStrict(await readFile(log, 'utf8'));
    // No lost attempt: the lease never lapsed. The agent left the task unfinished, so the loop handed it back.
    expect(final.workLog.filter((e) => e.summary.includes('Lost attempt'))).toEqual([]);
    expect(findTask(final, '1').status).toBe('Pending');
  }, 60_000);
});
