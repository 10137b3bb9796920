/**
 * Goals, memory, the activity log and the Stop hook's claim check on one PostgreSQL database shared
 * by two "machines" (separate working directories, nothing shared on disk), through RATCHET_STORE,
 * with the built CLI as a user runs it. Skipped loudly when no PostgreSQL can be started.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPostgresBackend } from '@ratchet/store-postgres';
import { INSTALL_HINT, startTestCluster, testClusterAvailability, type TestCluster } from '@ratchet/store-postgres/testing';
import { bin, ratchet, tempDir } from '../helpers.js';

const availability = testClusterAvailability();
if (!availability.available) console.warn(`\n*** SKIPPED: the PostgreSQL fleet state tests need PostgreSQL: ${INSTALL_HINT}\n`);

/** One CLI run as a real process, without waiting for the others (for concurrent writers). */
function ratchetAsync(args: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

describe.skipIf(!availability.available)('goals, memory and the activity log shared by two machines through PostgreSQL', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  const machine = (name: string): string => {
    const dir = join(tempDir(`ratchet-${name}-`), 'project');
    mkdirSync(dir);
    return dir;
  };
  const envFor = (project: string): Record<string, string> => ({ RATCHET_STORE: cluster.url, RATCHET_STORE_PROJECT: project });
  const on = (dir: string, project: string, args: string[], extra: Record<string, string> = {}) => ratchet(args, { cwd: dir, env: { ...envFor(project), ...extra }, timeout: 60_000 });

  test('goals: one state for both machines; concurrent writers expecting one version: exactly one wins', async () => {
    const [m1, m2] = [machine('goals-m1'), machine('goals-m2')];
    expect(on(m1, 'goals', ['goals', 'add', 'ship the fleet', '--priority', '5']).status).toBe(0);
    const listed = JSON.parse(on(m2, 'goals', ['--json', 'goals', 'list']).stdout) as { version: number; goals: { title: string }[] };
    expect(listed.goals.map((g) => g.title)).toEqual(['ship the fleet']);
    // A write from machine 2 is seen by machine 1's turn assess.
    expect(on(m2, 'goals', ['actions', 'add', 'agent_task', 'write the runbook', '--owner', 'agent']).status).toBe(0);
    const assess = JSON.parse(on(m1, 'goals', ['--json', 'turn', 'assess']).stdout) as { version: number; actions: { action: { title: string } }[] };
    expect(assess.actions.map((a) => a.action.title)).toEqual(['write the runbook']);

    const version = assess.version;
    const writers = await Promise.all(Array.from({ length: 6 }, (_, i) => ratchetAsync(['goals', 'add', `racer ${i}`, '--expected-version', String(version)], i % 2 === 0 ? m1 : m2, envFor('goals'))));
    expect(writers.filter((w) => w.status === 0)).toHaveLength(1);
    const losers = writers.filter((w) => w.status !== 0);
    expect(losers).toHaveLength(5);
    for (const l of losers) expect([l.status, l.stderr]).toEqual([1, expect.stringMatching(/^postgres:\/\/.*#\.ratchet\/goals\.json: version conflict/)]);
    const after = JSON.parse(on(m1, 'goals', ['--json', 'goals', 'list']).stdout) as { version: number; goals: unknown[] };
    expect(after.version).toBe(version + 1);
    expect(after.goals).toHaveLength(2);
    // The state is in the database: neither machine has a goals.json.
    expect(existsSync(join(m1, '.ratchet', 'goals.json'))).toBe(false);
    expect(existsSync(join(m2, '.ratchet', 'goals.json'))).toBe(false);
  }, 180_000);

  test('goals: access scopes hold on the shared state as on files', () => {
    const [m1, m2] = [machine('scope-m1'), machine('scope-m2')];
    expect(on(m1, 'scopes', ['goals', 'add', 'alpha only', '--agent', 'alpha']).status).toBe(0);
    expect(on(m2, 'scopes', ['goals', 'add', 'beta only', '--agent', 'beta']).status).toBe(0);
    const seenByBeta = JSON.parse(on(m1, 'scopes', ['--json', 'goals', 'list', '--agent', 'beta']).stdout) as { goals: { title: string }[] };
    expect(seenByBeta.goals.map((g) => g.title)).toEqual(['beta only']);
  }, 120_000);

  test('memory: a failure learned on one machine is found on the other; nothing on disk', () => {
    const [m1, m2] = [machine('mem-m1'), machine('mem-m2')];
    const add = on(m1, 'memory', ['memory', 'add-failure', '--trigger', 'ModuleNotFoundError: No module named requests', '--fix', 'install it in the venv', '--cost', '2000']);
    expect(add.status, add.stderr).toBe(0);
    const hits = JSON.parse(on(m2, 'memory', ['--json', 'memory', 'query', 'pytest fails with No module named requests', '--record']).stdout) as { failures: { name: string }[] };
    expect(hits.failures.map((f) => f.name)).toEqual(['module-not-found-error-no-module']);
    // --record counted the access in the shared document, seen from machine 1.
    const stats = JSON.parse(on(m1, 'memory', ['--json', 'memory', 'stats']).stdout) as { failures: number };
    expect(stats.failures).toBe(1);
    expect(existsSync(join(m1, '.ratchet', 'memory.json'))).toBe(false);
    expect(existsSync(join(m2, '.ratchet', 'memory.json'))).toBe(false);
    // A --file leading out of the project is refused before anything is written.
    const out = on(m2, 'memory', ['memory', 'add-failure', '--file', '../elsewhere.json', '--trigger', 'x y z w', '--fix', 'f', '--cost', '1']);
    expect(out.status).toBe(2);
  }, 120_000);

  test('the activity log: lifecycle entries go to the shared log; TASK_END once however often close runs', async () => {
    const m1 = machine('log-m1');
    expect(on(m1, 'log', ['init']).status).toBe(0);
    const started = on(m1, 'log', ['task', 'start', '--task-id', 'fleet-1', '--no-network']);
    expect(started.status, started.stderr).toBe(0);
    expect(existsSync(join(m1, 'logs', 'activity.log.jsonl'))).toBe(false);
    const closes = await Promise.all([0, 1, 2].map(() => ratchetAsync(['task', 'close', '--task-id', 'fleet-1', '--abandon', '--reason', 'fleet test'], m1, envFor('log'))));
    expect(closes.filter((c) => c.status === 0).length, closes.map((c) => c.stderr).join('\n')).toBeGreaterThanOrEqual(1);
    const backend = createPostgresBackend({ url: cluster.url, project: 'log' });
    try {
      const records = (await backend.logs.read('logs/activity.log.jsonl')).map((e) => e.record as { action: { type: string }; task: { id: string } });
      expect(records.map((r) => r.action.type)).toEqual(['TASK_START', 'TASK_END']);
      expect(records.every((r) => r.task.id === 'fleet-1')).toBe(true);
    } finally {
      await backend.close();
    }
    expect(existsSync(join(m1, 'logs', 'activity.log.jsonl'))).toBe(false);
  }, 180_000);

  test('the hooks on a machine whose config names the database: Stop sees its claims (an unreachable database blocks too), SessionStart its goals, PostToolUse logs there', async () => {
    const [m1, m2] = [machine('hook-m1'), machine('hook-m2')];
    writeFileSync(join(m1, 'plan.json'), JSON.stringify({ tasks: [{ seq: 1, slug: 'api', delta: ['src/api.ts'], verify: 'true', depends: 'none' }] }));
    expect(on(m1, 'hook', ['campaign', 'create', 'fleet hook']).status).toBe(0);
    expect(on(m1, 'hook', ['campaign', 'add-tasks', 'plan.json']).status).toBe(0);
    expect(on(m2, 'hook', ['campaign', 'ready', '--claim', 'builder-7', '--lease', '15m']).status).toBe(0);
    expect(existsSync(join(m2, '.ratchet', 'campaign.json'))).toBe(false);
    // Machine 2 names the database in its config (hooks get no RATCHET_STORE from Claude Code).
    writeFileSync(join(m2, 'ratchet.config.json'), JSON.stringify({ store: { url: cluster.url, project: 'hook' } }));
    const payload = JSON.stringify({ session_id: 'fleet-session-1', transcript_path: join(m2, 't.jsonl'), cwd: m2, hook_event_name: 'Stop', stop_hook_active: false });
    const stop = (env: Record<string, string>) => ratchet(['hook', 'stop'], { cwd: m2, input: payload, env: { CLAUDE_PROJECT_DIR: m2, RATCHET_RUNNER: 'builder-7', RATCHET_STORE: '', RATCHET_STORE_PROJECT: '', ...env }, timeout: 60_000 });
    const blocked = stop({});
    expect(blocked.status).toBe(0);
    expect((JSON.parse(blocked.stdout) as { decision: string; reason: string }).reason).toContain('campaign task 001 (api) is claimed by builder-7');
    // On files (RATCHET_STORE=file) this machine has no campaign: nothing to block on.
    expect(stop({ RATCHET_STORE: 'file' }).stdout.trim()).toBe('');
    const down = stop({ RATCHET_STORE: 'postgres://fleet:hunter2@127.0.0.1:1/ratchet' });
    const reason = (JSON.parse(down.stdout) as { reason: string }).reason;
    expect(reason).toContain('shared store cannot be reached');
    expect(reason).toContain('postgres://fleet:***@127.0.0.1:1/ratchet');
    expect(reason).not.toContain('hunter2');
    // SessionStart on machine 2 shows the shared goals' turn assess (no goals.json on the machine).
    expect(on(m1, 'hook', ['goals', 'add', 'keep the fleet green', '--priority', '3']).status).toBe(0);
    const start = ratchet(['hook', 'session-start'], { cwd: m2, input: JSON.stringify({ session_id: 'fleet-session-1', cwd: m2, hook_event_name: 'SessionStart', source: 'startup' }), env: { CLAUDE_PROJECT_DIR: m2, RATCHET_RUNNER: 'builder-7', RATCHET_STORE: '', RATCHET_STORE_PROJECT: '' }, timeout: 60_000 });
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context).toContain('campaign task 001 (api) is claimed by builder-7');
    expect(context).toContain('keep the fleet green');
    // PostToolUse logs the tool call into the shared activity log, not a local file.
    const tool = ratchet(['hook', 'post-tool-use'], { cwd: m2, input: JSON.stringify({ session_id: 'fleet-session-1', cwd: m2, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(m2, 'src/api.ts'), content: 'export {};\n' }, tool_response: { success: true } }), env: { CLAUDE_PROJECT_DIR: m2, RATCHET_STORE: '', RATCHET_STORE_PROJECT: '' }, timeout: 60_000 });
    expect([tool.status, tool.stderr]).toEqual([0, '']);
    expect(existsSync(join(m2, 'logs', 'activity.log.jsonl'))).toBe(false);
    const backend = createPostgresBackend({ url: cluster.url, project: 'hook' });
    try {
      const logged = (await backend.logs.read('logs/activity.log.jsonl')).map((e) => e.record as { action: { type: string; details: { tool: string } } });
      expect(logged.map((r) => [r.action.type, r.action.details.tool])).toEqual([['TOOL_CALL', 'Write']]);
    } finally {
      await backend.close();
    }
    // Completing the claim from the other machine discharges it.
    expect(on(m1, 'hook', ['campaign', 'update-task', '1', 'complete', '--runner', 'builder-7']).status).toBe(0);
    expect(stop({}).stdout.trim()).toBe('');
  }, 180_000);

  test('an unreachable database: goals and memory commands exit 2, URL without its password, nothing written locally', () => {
    const dir = machine('down');
    const env = { RATCHET_STORE: 'postgres://fleet:hunter2@127.0.0.1:1/ratchet' };
    for (const args of [['goals', 'add', 'x'], ['memory', 'add-failure', '--trigger', 'a b c d', '--fix', 'f', '--cost', '1'], ['turn', 'assess']]) {
      const r = ratchet(args, { cwd: dir, env, timeout: 60_000 });
      expect([r.status, r.stderr]).toEqual([2, expect.stringContaining('postgres://fleet:***@127.0.0.1:1/ratchet')]);
      expect(r.stderr).not.toContain('hunter2');
    }
    expect(existsSync(join(dir, '.ratchet'))).toBe(false);
  }, 120_000);
});
