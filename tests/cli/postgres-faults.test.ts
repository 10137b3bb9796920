/**
 * The built CLI on a PostgreSQL store that fails under it: the server killed mid-command
 * (`pg_ctl stop -m immediate`), a URL that cannot be used, a peer holding the row a command needs.
 * Every such failure is exit 2 with one line naming the URL (password masked), never a crash or a
 * stack; nothing half-written is left; and a command waits a bounded time for a lock, then says
 * what it waited for. Needs a local throwaway cluster (skipped loudly without PostgreSQL).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';
import { ratchetAsync, tempDir } from '../helpers.js';

const availability = testClusterAvailability();
// A shared server (RATCHET_TEST_PG_URL) cannot be killed by a test: these need a cluster of their own.
const local = availability.available && availability.via === 'binaries';
if (!local) console.warn(`\n*** SKIPPED: the PostgreSQL fault tests need the PostgreSQL binaries for a throwaway cluster: ${INSTALL_HINT}\n`);

type Run = Awaited<ReturnType<typeof ratchetAsync>>;

/** A refusal as the CLI must give one: exit 2, exactly one line on stderr, naming the URL, no stack. */
function expectOneLineRefusal(r: Run, url: string): void {
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toContain(url);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error|Unhandled|hunter2/u);
}

/** The cluster's URL with a password in it (trust auth ignores it), to show it is always masked. */
const withPassword = (url: string): { url: string; shown: string } => {
  const u = new URL(url);
  u.password = 'hunter2';
  return { url: u.toString(), shown: u.toString().replace(':hunter2@', ':***@') };
};

describe.skipIf(!local)('the CLI on a PostgreSQL store that fails under it', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  const machine = (): string => {
    const dir = join(tempDir('ratchet-pgfault-'), 'project');
    mkdirSync(dir);
    return dir;
  };

  test('the server killed mid-command: every command exits 0 or 2 with one line, and what committed is whole', { timeout: 300_000 }, async () => {
    const dir = machine();
    const { url, shown } = withPassword(cluster.url);
    const env = { RATCHET_STORE: url, RATCHET_STORE_PROJECT: 'crash' };
    expect((await ratchetAsync(['goals', 'add', 'seed goal'], dir, env)).status).toBe(0);
    // Eight writers, each starting its next command as soon as one ends, so that commands are at
    // every stage (connecting, in a transaction, committing) when the server dies; they go on for a
    // while against the dead server too.
    const runs: { title: string; goal: boolean; run: Promise<Run> }[] = [];
    let stop = false;
    const writers = Array.from({ length: 8 }, async (_, lane) => {
      for (let n = 0; !stop; n++) {
        const title = `goal ${lane}-${n}`;
        const goal = lane % 2 === 0;
        const args = goal ? ['goals', 'add', title] : ['memory', 'add-failure', '--trigger', `error ${title}`, '--fix', 'retry', '--cost', '2000'];
        const run = ratchetAsync(args, dir, env);
        runs.push({ title, goal, run });
        await run;
      }
    });
    // Crash once commands are going through (a loaded machine takes seconds to start each one).
    const succeeded = async (): Promise<number> => (await Promise.all(runs.map((r) => Promise.race([r.run, sleep(0).then(() => undefined)])))).filter((r) => r?.status === 0).length;
    for (let waited = 0; (await succeeded()) < 12 && waited < 120_000; waited += 250) await sleep(250);
    await cluster.crash!();
    let results: Run[];
    try {
      await sleep(1500);
      stop = true;
      await Promise.all(writers);
      results = await Promise.all(runs.map((r) => r.run));
    } finally {
      // Back up whatever happened, for the next test.
      await cluster.restart!();
    }
    const failed = results.filter((r) => r.status !== 0);
    expect(failed.length, 'some commands ran into the dead server').toBeGreaterThan(0);
    for (const r of failed) expectOneLineRefusal(r, shown);

    // Back up: the state reads, and every goal whose command said 0 is there, whole.
    const listed = await ratchetAsync(['--json', 'goals', 'list'], dir, env);
    expect(listed.status, listed.stderr).toBe(0);
    const titles = (JSON.parse(listed.stdout) as { goals: { title: string }[] }).goals.map((g) => g.title);
    const added = runs.filter((r, i) => r.goal && results[i]?.status === 0).map((r) => r.title);
    expect(added.length).toBeGreaterThan(0);
    for (const title of added) expect(titles).toContain(title);
    const memory = await ratchetAsync(['--json', 'memory', 'query', 'error goal'], dir, env);
    expect(memory.status, memory.stderr).toBe(0);
  });

  test('a URL that cannot be used (port 99999, no such host socket): exit 2, one line, password masked', { timeout: 120_000 }, async () => {
    const dir = machine();
    for (const url of ['postgres://fleet:hunter2@127.0.0.1:99999/ratchet', 'postgres://fleet:hunter2@[::1/ratchet', 'postgres://fleet:hunter2@127.0.0.1:1/ratchet']) {
      const r = await ratchetAsync(['goals', 'list'], dir, { RATCHET_STORE: url });
      expectOneLineRefusal(r, url.replace(':hunter2@', ':***@'));
    }
  });

  test('a peer holding the campaign row: update-task gives up after lock_timeout, naming what it waited for', { timeout: 180_000 }, async () => {
    const dir = machine();
    const { url, shown } = withPassword(cluster.url);
    const env = { RATCHET_STORE: url, RATCHET_STORE_PROJECT: 'locked' };
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ tasks: [1, 2, 3].map((seq) => ({ seq, delta: [`f${seq}`], verify: 'true', depends: 'none' })) }));
    expect((await ratchetAsync(['campaign', 'create', 'locked'], dir, env)).status).toBe(0);
    expect((await ratchetAsync(['campaign', 'add-tasks', 'plan.json'], dir, env)).status).toBe(0);
    expect((await ratchetAsync(['campaign', 'ready', '--claim', 'r1', '--lease', '15m'], dir, env)).status).toBe(0);

    // The peer: another process's transaction holding the campaign document's row lock for a minute.
    const peer = createPostgresBackend({ url: cluster.url, project: 'locked' });
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const held = peer.documents.update('.ratchet/campaign.json', async () => {
      locked();
      await Promise.race([holding, sleep(60_000)]);
      return undefined;
    });
    try {
      await isLocked;
      // Configured in the URL: one second.
      const quick = await ratchetAsync(['campaign', 'update-task', '1', 'complete', '--runner', 'r1'], dir, { ...env, RATCHET_STORE: `${url}&lock_timeout=1s` });
      expectOneLineRefusal(quick, shown);
      expect(quick.stderr).toContain('.ratchet/campaign.json');
      expect(quick.stderr).toMatch(/lock_timeout/u);
      expect(quick.stderr).toMatch(/1 s\b/u);
      expect(quick.ms).toBeLessThan(40_000);
      // The default: a bounded wait (10 s), where a claim used to hang for as long as the peer held on.
      const byDefault = await ratchetAsync(['campaign', 'ready', '--claim', 'r2', '--lease', '15m'], dir, env);
      expectOneLineRefusal(byDefault, shown);
      expect(byDefault.stderr).toMatch(/10 s\b/u);
      // statement_timeout shorter than lock_timeout: the statement gives up first, and says so.
      const statement = await ratchetAsync(['campaign', 'update-task', '1', 'complete', '--runner', 'r1'], dir, { ...env, RATCHET_STORE: `${url}&lock_timeout=30s&statement_timeout=1500ms` });
      expectOneLineRefusal(statement, shown);
      expect(statement.stderr).toMatch(/statement_timeout/u);
      expect(statement.stderr).toMatch(/1\.5 s\b/u);
      expect(statement.ms).toBeLessThan(40_000);
    } finally {
      release();
      await held;
      await peer.close();
    }
    // Once the peer lets go, the same command goes through.
    const after = await ratchetAsync(['campaign', 'update-task', '1', 'complete', '--runner', 'r1'], dir, env);
    expect(after.status, after.stderr).toBe(0);
  });

  test('a bad timeout in the URL is refused before connecting: exit 2, naming it', { timeout: 60_000 }, async () => {
    const dir = machine();
    for (const bad of ['lock_timeout=soon', 'statement_timeout=-1s', 'lock_timeout=']) {
      const r = await ratchetAsync(['goals', 'list'], dir, { RATCHET_STORE: `${cluster.url}&${bad}` });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(bad.split('=')[0]!);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
