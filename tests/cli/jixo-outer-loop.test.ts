/**
 * Issue 27, JIXO's outer loop, every command a real process: a task held by a runner that is not
 * there (the loop that leased it was killed with SIGKILL), a Planner that holds the log lock longer
 * than a lock timeout, and `jixo triage` with the default `--active` while another runner holds the
 * log lock.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, ratchetInBackground, tempDir } from '../helpers.js';

const ONE_TASK = '---\ntitle: "Docs"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n\n## Work Log\n';
const EMPTY = '---\ntitle: "_待定_"\nprogress: "0%"\n---\n\n## Roadmap\n\n## Work Log\n';

function project(log: string): string {
  const dir = tempDir('ratchet-jixo-loop-');
  writeFileSync(join(dir, 'docs.job.md'), '---\nname: docs\n---\n\nWrite docs.\n');
  writeFileSync(join(dir, 'docs.log.md'), log);
  return dir;
}

/** Completes its assigned task through the CLI that started it; does nothing in any other role. */
const COMPLETE = 'if [ "$RATCHET_JIXO_ROLE" = Runner ]; then $RATCHET_JIXO_CLI jixo task complete "$RATCHET_JIXO_LOG_FILE" "$RATCHET_JIXO_TASK" --runner "$RATCHET_JIXO_RUNNER" --summary done; fi';

const background = (args: string[], cwd: string, options: { detached?: boolean } = {}) => ratchetInBackground(args, { cwd, ...options });

/** The start of a scripted agent: `r(...args)` runs the CLI that started it (RATCHET_JIXO_CLI). */
const AGENT_PRELUDE = `import { execFileSync } from 'node:child_process';
const e = process.env;
const [cmd, ...pre] = e.RATCHET_JIXO_CLI.split(' ');
const r = (...a) => execFileSync(cmd, [...pre, ...a], { encoding: 'utf8' });
const LOG = e.RATCHET_JIXO_LOG_FILE, R = e.RATCHET_JIXO_RUNNER;`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const json = (out: string): Record<string, unknown> => JSON.parse(out) as Record<string, unknown>;

describe('jixo run: a task held by a runner that is not there', () => {
  test('after kill -9 of the loop holding a leased task, a rerun starts no agent until the lease ends, then finishes the job', async () => {
    const dir = project(ONE_TASK);
    const first = background(['jixo', 'run', 'docs.job.md', '--agent', 'sleep 60', '--lease', '4s'], dir, { detached: true });
    const log = join(dir, 'docs.log.md');
    for (let i = 0; i < 400 && !readFileSync(log, 'utf8').includes('status: Locked'); i++) await sleep(50);
    const leaseUntil = /leaseUntil: (\S+)/.exec(readFileSync(log, 'utf8'))![1]!;
    // The loop and its agent die at once, as on a lost machine: nothing hands the task back.
    process.kill(-first.child.pid!, 'SIGKILL');
    await first.done;
    const rerun = background(['--json', 'jixo', 'run', 'docs.job.md', '--agent', COMPLETE, '--max-runs', '3'], dir);
    const r = await rerun.done;
    expect(r.status, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ status: 'completed', runs: 1, progress: 1 });
    expect(r.stderr).not.toMatch(/no assignment/);
    expect(r.stderr).toMatch(/waiting \(task 1 is held by docs-\S+ until /);
    // The task went to the rerun's agent only once the dead runner's lease had run out.
    const text = readFileSync(log, 'utf8');
    expect(text).toContain(`Lost attempt: runner `);
    expect(text).toContain(`until its lease expired at ${leaseUntil}`);
  }, 90_000);

  test('a lease far in the future: jixo run starts no agent and exits 1 saying until when the task is held', () => {
    const dir = project(ONE_TASK.replace('  - status: Pending', '  - status: Locked\n  - runner: elsewhere\n  - leaseUntil: 2099-01-01T00:00:00.000Z'));
    const r = ratchet(['--json', 'jixo', 'run', 'docs.job.md', '--agent', 'touch started', '--max-runs', '40'], { cwd: dir, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(1);
    expect(json(r.stdout)).toMatchObject({ ok: false, status: 'held', runs: 0, heldUntil: '2099-01-01T00:00:00.000Z' });
    expect(String(json(r.stdout).reason)).toMatch(/task 1 is held by elsewhere until 2099-01-01T00:00:00.000Z/);
    expect(existsSync(join(dir, 'started'))).toBe(false);
  }, 60_000);
});

describe('jixo run: a Planner that holds the log lock longer than a lock timeout', () => {
  test('the waiting slot waits for it, and the run completes with its message (exit 0)', async () => {
    const dir = project(EMPTY);
    const agent = join(dir, 'agent.mjs');
    writeFileSync(
      agent,
      `${AGENT_PRELUDE}
if (e.RATCHET_JIXO_ROLE === 'Planner') {
  r('jixo', 'lock', LOG, '--runner', R);
  await new Promise((ok) => setTimeout(ok, 11_000));
  r('jixo', 'title', LOG, 'Docs', '--runner', R);
  r('jixo', 'task', 'add', LOG, '--id', '1', '--title', 'Intro', '--runner', R);
  r('jixo', 'task', 'add', LOG, '--id', '2', '--title', 'Tutorial', '--depends-on', '1', '--runner', R);
  r('jixo', 'log', 'add', LOG, '--runner', R, '--role', 'Planner', '--objective', 'Plan the docs', '--summary', '2 tasks');
  r('jixo', 'unlock', LOG, '--runner', R);
} else if (e.RATCHET_JIXO_ROLE === 'Runner') {
  r('jixo', 'task', 'complete', LOG, e.RATCHET_JIXO_TASK, '--runner', R, '--summary', 'done');
}
`,
    );
    const r = await background(['--json', 'jixo', 'run', 'docs.job.md', '--agent', `node ${agent}`, '--runners', '2', '--max-loops', '6'], dir).done;
    expect(r.status, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ status: 'completed', progress: 1, exit: { code: 0 } });
  }, 120_000);
});

describe('jixo run: a Planner that commits its plan in two pieces', () => {
  test('the job is not marked complete between them, and no task runs beside the one it depends on', async () => {
    const dir = project(EMPTY);
    const agent = join(dir, 'agent.mjs');
    const trace = join(dir, 'trace.jsonl');
    writeFileSync(
      agent,
      `${AGENT_PRELUDE}
import { appendFileSync } from 'node:fs';
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const note = (what) => appendFileSync(${JSON.stringify(trace)}, JSON.stringify({ what, task: e.RATCHET_JIXO_TASK, at: Date.now() }) + '\\n');
if (e.RATCHET_JIXO_ROLE === 'Planner') {
  r('jixo', 'lock', LOG, '--runner', R);
  r('jixo', 'title', LOG, 'Docs', '--runner', R);
  r('jixo', 'task', 'add', LOG, '--id', '1', '--title', 'Intro', '--runner', R);
  r('jixo', 'unlock', LOG, '--runner', R);
  await sleep(3000);
  r('jixo', 'lock', LOG, '--runner', R);
  r('jixo', 'task', 'add', LOG, '--id', '2', '--title', 'Tutorial', '--depends-on', '1', '--runner', R);
  r('jixo', 'task', 'add', LOG, '--id', '3', '--title', 'Reference', '--depends-on', '2', '--runner', R);
  note('planned');
  r('jixo', 'log', 'add', LOG, '--runner', R, '--role', 'Planner', '--objective', 'Plan the docs', '--summary', '3 tasks');
  r('jixo', 'unlock', LOG, '--runner', R);
} else if (e.RATCHET_JIXO_ROLE === 'Runner') {
  note('start');
  await sleep(200);
  r('jixo', 'task', 'complete', LOG, e.RATCHET_JIXO_TASK, '--runner', R, '--summary', 'done');
  note('end');
}
`,
    );
    const r = await background(['--json', 'jixo', 'run', 'docs.job.md', '--agent', `node ${agent}`, '--runners', '2', '--max-loops', '8'], dir).done;
    expect(r.status, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ status: 'completed', progress: 1, exit: { code: 0 } });
    const events = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { what: string; task?: string; at: number });
    const at = (what: string, task?: string) => events.find((ev) => ev.what === what && ev.task === task)!.at;
    // Task 1 ran while the Planner slept between its pieces; the rest only after, in dependency order.
    expect(at('start', '2')).toBeGreaterThan(at('end', '1'));
    expect(at('start', '3')).toBeGreaterThan(at('end', '2'));
    expect(at('start', '2')).toBeGreaterThan(at('planned', ''));
    const text = readFileSync(join(dir, 'docs.log.md'), 'utf8');
    expect(text.match(/- \*\*Result\*\*: Succeeded/g)).toHaveLength(4);
  }, 120_000);
});

describe('jixo triage and the log lock', () => {
  test('triage by r2 with the default --active waits for the log lock r1 holds instead of deleting it', async () => {
    const dir = project(ONE_TASK.replace('- [ ] 1. Intro\n  - status: Pending', '- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending'));
    expect(ratchet(['jixo', 'lock', 'docs.log.md', '--runner', 'r1'], { cwd: dir }).status).toBe(0);
    const t = background(['--json', 'jixo', 'triage', 'docs.job.md', '--runner', 'r2'], dir);
    await sleep(1500);
    // r1 still holds its lock: triage is waiting for it.
    expect(JSON.parse(readFileSync(join(dir, 'docs.log.md.lock'), 'utf8'))).toMatchObject({ runner: 'r1' });
    const committed = ratchet(['jixo', 'task', 'lock', 'docs.log.md', '1', '--runner', 'r1'], { cwd: dir });
    expect(committed.status, committed.stderr).toBe(0);
    expect(ratchet(['jixo', 'unlock', 'docs.log.md', '--runner', 'r1'], { cwd: dir }).status).toBe(0);
    const r = await t.done;
    expect(r.status, r.stderr).toBe(0);
    // It decided on the log as r1 left it: task 1 is r1's, so r2 is told task 2.
    expect(json(r.stdout)).toMatchObject({ kind: 'role', role: 'Runner', taskId: '2', staleLocks: [] });
  }, 60_000);
});
