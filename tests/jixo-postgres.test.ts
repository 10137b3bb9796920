/**
 * JIXO on a shared PostgreSQL backend, every command a real `ratchet` process: two working
 * directories ("two machines") with RATCHET_STORE pointing at one database share one log (the
 * document `.jixo/docs.log.md`, its exact Markdown), concurrent commits lose nothing, task leases
 * hold across them, and `store export` carries the Markdown verbatim.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listTasks, parseLogStrict, serializeLog, initialLog, storedLog, type RoadmapItem } from '@ratchet/jixo-log';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';
import { bin, ratchet, tempDir } from './helpers.js';

const availability = testClusterAvailability();
if (!availability.available) console.warn(`\n*** SKIPPED: JIXO on PostgreSQL needs PostgreSQL: ${INSTALL_HINT}\n`);

const KEY = '.jixo/docs.log.md';

/** A working directory with the job file only: the log lives in the database. */
function machine(): string {
  const dir = tempDir('ratchet-jixo-pg-');
  mkdirSync(join(dir, '.jixo'));
  writeFileSync(join(dir, '.jixo/docs.job.md'), '---\nname: docs\n---\n\nWrite the docs.\n');
  return dir;
}

function run(args: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe.skipIf(!availability.available)('JIXO logs on PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Puts a log with `tasks` Pending tasks into the project's database, as an import would. */
  async function seed(project: string, tasks: number): Promise<void> {
    const backend = createPostgresBackend({ url: cluster.url, project });
    try {
      const log = initialLog('2030-01-01T00:00:00.000Z');
      log.frontMatter.title = 'Docs';
      log.roadmap = Array.from({ length: tasks }, (_, i): RoadmapItem => ({ id: String(i + 1), text: `${i + 1}. Page ${i + 1}`, checked: false, status: 'Pending', notes: [], children: [] }));
      await backend.documents.update(KEY, () => ({ format: 'jixo-log', text: serializeLog(log) }));
    } finally {
      await backend.close();
    }
  }

  async function stored(project: string): Promise<string> {
    const backend = createPostgresBackend({ url: cluster.url, project });
    try {
      return (await storedLog(backend, KEY).read()).text;
    } finally {
      await backend.close();
    }
  }

  test('two machines, concurrent commits: every Work Log entry from both lands, nothing lost, no local log file', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-commits' };
    await seed('jixo-commits', 1);
    const a = machine();
    const b = machine();
    const writers = Array.from({ length: 12 }, (_, i) => run(['jixo', 'log', 'add', '.jixo/docs.log.md', '--role', 'Planner', '--objective', `note ${i}`, '--result', 'Succeeded', '--summary', `from ${i % 2 === 0 ? 'a' : 'b'}`, '--runner', `w${i}`], i % 2 === 0 ? a : b, env));
    const results = await Promise.all(writers);
    for (const r of results) expect(r.status, r.stderr).toBe(0);
    const log = parseLogStrict(await stored('jixo-commits'));
    expect(log.workLog.map((e) => e.objective).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `note ${i}`).sort());
    expect(log.workLog.map((e) => e.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // Machine B reads what A wrote through the CLI, and neither has a local log file.
    const listed = ratchet(['--json', 'jixo', 'task', 'list', '.jixo/docs.log.md'], { cwd: b, env });
    expect(listed.status, listed.stderr).toBe(0);
    expect(ratchet(['jixo', 'task', 'list', '.jixo/docs.log.md'], { cwd: a, env: { RATCHET_STORE: 'file' } }).status).toBe(2);
  }, 180_000);

  test('a task leased on machine A is refused on machine B until the lease expires', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-lease' };
    await seed('jixo-lease', 1);
    const a = machine();
    const b = machine();
    expect(ratchet(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'on-a', '--lease', '1500ms'], { cwd: a, env }).status).toBe(0);
    const early = ratchet(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'on-b'], { cwd: b, env });
    expect(early.status).toBe(1);
    expect(early.stderr).toMatch(/locked by on-a until/);
    await new Promise((r) => setTimeout(r, 1700));
    const late = ratchet(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'on-b'], { cwd: b, env });
    expect(late.status, late.stderr).toBe(0);
    const log = parseLogStrict(await stored('jixo-lease'));
    expect(listTasks(log)[0]).toMatchObject({ status: 'Locked', runner: 'on-b' });
    expect(log.workLog[0]!.summary).toMatch(/Lost attempt: runner on-a/);
  }, 120_000);

  test('jixo run on two machines at once: every task completed exactly once, one entry each, exit 0', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-run' };
    await seed('jixo-run', 8);
    const agent = `if [ "$RATCHET_JIXO_ROLE" = Runner ]; then "${process.execPath}" "${bin}" jixo task complete "$RATCHET_JIXO_LOG_FILE" "$RATCHET_JIXO_TASK" --runner "$RATCHET_JIXO_RUNNER" --summary "done on $(basename "$PWD")"; fi`;
    const runs = [machine(), machine()].map((dir) => run(['--json', 'jixo', 'run', '.jixo/docs.job.md', '--agent', agent, '--runners', '2', '--max-loops', '12'], dir, env));
    const results = await Promise.all(runs);
    for (const r of results) expect(r.status, r.stderr).toBe(0);
    const log = parseLogStrict(await stored('jixo-run'));
    const tasks = listTasks(log);
    expect(tasks.every((t) => t.status === 'Completed')).toBe(true);
    for (const t of tasks) expect(log.workLog.filter((e) => e.objective === `Task ${t.text}` && e.result === 'Succeeded')).toHaveLength(1);
    expect(log.workLog.filter((e) => e.result === 'Succeeded')).toHaveLength(8);
    expect(log.frontMatter.exit?.code).toBe(0);
  }, 240_000);

  test('store export carries the log as its exact Markdown, and importing it elsewhere gives the same bytes', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-export' };
    await seed('jixo-export', 2);
    const a = machine();
    expect(ratchet(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'r1'], { cwd: a, env }).status).toBe(0);
    const text = await stored('jixo-export');
    const out = ratchet(['store', 'export', '--out', join(a, 'state.jsonl')], { cwd: a, env });
    expect(out.status, out.stderr).toBe(0);
    const back = ratchet(['store', 'import', join(a, 'state.jsonl')], { cwd: a, env: { ...env, RATCHET_STORE_PROJECT: 'jixo-export-copy' } });
    expect(back.status, back.stderr).toBe(0);
    expect(await stored('jixo-export-copy')).toBe(text);
    expect(text).toContain('- leaseUntil: ');
  }, 120_000);

  test('bad stored logs: a broken Markdown log or a document that is no log exits 2 naming it, and nothing is written', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-bad' };
    const backend = createPostgresBackend({ url: cluster.url, project: 'jixo-bad' });
    try {
      const broken = '---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. a\n  - status: Sideways\n\n## Work Log\n';
      await backend.documents.update(KEY, () => ({ format: 'jixo-log', text: broken }));
      await backend.documents.update('.jixo/other.log.md', () => ({ name: 'not a log' }));
      const a = machine();
      const r = ratchet(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'r1'], { cwd: a, env });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/#\.jixo\/docs\.log\.md:9:13: .*unknown status "Sideways"/);
      expect((await backend.documents.get(KEY))?.value).toEqual({ format: 'jixo-log', text: broken });
      const other = ratchet(['jixo', 'task', 'list', '.jixo/other.log.md'], { cwd: a, env });
      expect(other.status).toBe(2);
      expect(other.stderr).toMatch(/not a stored JIXO log/);
      const missing = ratchet(['jixo', 'task', 'list', '.jixo/none.log.md'], { cwd: a, env });
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/none\.log\.md.*no such log in the store/);
    } finally {
      await backend.close();
    }
  }, 120_000);

  test('Planner moves on a shared log: an agent triage did not elect is refused; the elected one commits under its lock from machine A', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-planner' };
    const agent = { ...env, RATCHET_ACTOR: 'agent' };
    await seed('jixo-planner', 1);
    const a = machine();
    const b = machine();
    expect(ratchet(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'r1'], { cwd: b, env: agent }).status).toBe(0);
    expect(ratchet(['jixo', 'task', 'fail', '.jixo/docs.log.md', '1', '--runner', 'r1', '--summary', 'broke'], { cwd: b, env: agent }).status).toBe(0);
    const elected = ratchet(['--json', 'jixo', 'triage', '.jixo/docs.job.md', '--runner', 'planner-a'], { cwd: a, env: agent });
    expect(elected.status, elected.stderr).toBe(0);
    expect(JSON.parse(elected.stdout)).toMatchObject({ role: 'Planner', step: 'failed-task' });
    // Machine B's runner is not the Planner; the Planner itself must hold the lock.
    expect(ratchet(['jixo', 'task', 'cancel', '.jixo/docs.log.md', '1', '--runner', 'r1'], { cwd: b, env: agent }).status).toBe(1);
    expect(ratchet(['jixo', 'task', 'cancel', '.jixo/docs.log.md', '1', '--runner', 'planner-a'], { cwd: a, env: agent }).status).toBe(1);
    expect(ratchet(['jixo', 'lock', '.jixo/docs.log.md', '--runner', 'planner-a'], { cwd: a, env: agent }).status).toBe(0);
    expect(ratchet(['jixo', 'task', 'cancel', '.jixo/docs.log.md', '1', '--runner', 'planner-a', '--summary', 'replaced by 2'], { cwd: a, env: agent }).status).toBe(0);
    expect(ratchet(['jixo', 'task', 'add', '.jixo/docs.log.md', '--id', '2', '--title', 'Page 2, again', '--runner', 'planner-a'], { cwd: a, env: agent }).status).toBe(0);
    expect(ratchet(['jixo', 'unlock', '.jixo/docs.log.md', '--runner', 'planner-a'], { cwd: a, env: agent }).status).toBe(0);
    const log = parseLogStrict(await stored('jixo-planner'));
    expect(listTasks(log).map((t) => [t.id, t.status])).toEqual([['1', 'Cancelled'], ['2', 'Pending']]);
    expect(log.workLog[0]).toMatchObject({ role: 'Planner', result: 'Cancelled', runner: 'planner-a', summary: 'replaced by 2' });
  }, 120_000);

  test('jixo lock on machine A holds commits from machine B until A unlocks; only A may unlock', async () => {
    const env = { RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: 'jixo-log-lock' };
    await seed('jixo-log-lock', 2);
    const a = machine();
    const b = machine();
    const locked = ratchet(['jixo', 'lock', '.jixo/docs.log.md', '--runner', 'planner-a'], { cwd: a, env });
    expect(locked.status, locked.stderr).toBe(0);
    expect(locked.stdout).toContain('## Roadmap');
    let finished = false;
    const commit = run(['jixo', 'task', 'lock', '.jixo/docs.log.md', '1', '--runner', 'runner-b'], b, env).then((r) => ((finished = true), r));
    await new Promise((r) => setTimeout(r, 1500));
    expect(finished).toBe(false);
    expect(ratchet(['jixo', 'unlock', '.jixo/docs.log.md', '--runner', 'runner-b'], { cwd: b, env }).status).toBe(1);
    // The lock's runner commits under its own lock.
    expect(ratchet(['jixo', 'task', 'add', '.jixo/docs.log.md', '--id', '3', '--title', 'Index', '--runner', 'planner-a'], { cwd: a, env }).status).toBe(0);
    expect(ratchet(['jixo', 'unlock', '.jixo/docs.log.md', '--runner', 'planner-a'], { cwd: a, env }).status).toBe(0);
    const r = await commit;
    expect(r.status, r.stderr).toBe(0);
    const log = parseLogStrict(await stored('jixo-log-lock'));
    expect(listTasks(log).map((t) => [t.id, t.status])).toEqual([['1', 'Locked'], ['2', 'Pending'], ['3', 'Pending']]);
  }, 120_000);
});
