/**
 * `ratchet serve`'s parts in process: what the state reader makes of a project (every section, a
 * broken file shown with its place while the rest still reads), the patches it sends, which file
 * changes wake which section, the refusal log's rules, the HTTP server's refusals (writes, foreign
 * Host headers, unknown paths), and the wave layout the page uses for large graphs. The whole
 * command, in a real browser, is tests/cli/serve*.test.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBackend } from '@ratchet/store';
import { describe, expect, test } from 'vitest';
import { makeContext, type Io } from '../src/context.js';
import { run } from '../src/main.js';
import fc from 'fast-check';
import { refusalRecord, refusalRules, refusalValidator } from '../src/refusal-log.js';
import { RefusalRecordSchema } from '../src/refusal-log-schema.js';
import type { Snapshot } from '../src/serve/model.js';
import { CONTENT_SECURITY_POLICY, createDashboardServer, isLoopback, PAGE_FILES } from '../src/serve/server.js';
import { DashboardState, SECTIONS } from '../src/serve/state.js';
import { sectionsFor } from '../src/serve/watch.js';
import { waveLayout, NODE_H, NODE_W } from '../web/src/layout.js';

function temp(): string {
  return mkdtempSync(join(tmpdir(), 'ratchet-serve-'));
}

function io(cwd: string): Io {
  return { stdout: () => undefined, stderr: () => undefined, isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
}

async function ratchet(cwd: string, args: string[]): Promise<number> {
  return run(['--cwd', cwd, ...args], io(cwd));
}

const PLAN = {
  tasks: [
    { seq: 1, slug: 'schema', delta: ['a'], verify: 'true', depends: 'none', description: '<img src=x onerror="window.__pwned=1">' },
    { seq: 2, slug: 'api', delta: ['b'], verify: 'true', depends: [1] },
    { seq: 3, slug: 'ui', delta: ['c'], verify: 'true', depends: [1] },
    { seq: 4, slug: 'e2e', delta: ['d'], verify: 'true', depends: [2, 3] },
    { seq: 5, slug: 'docs', delta: ['e'], verify: 'true', depends: [4] },
  ],
};

async function project(): Promise<string> {
  const dir = temp();
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(PLAN));
  expect(await ratchet(dir, ['campaign', 'create', 'Ship it'])).toBe(0);
  expect(await ratchet(dir, ['campaign', 'add-tasks', 'plan.json'])).toBe(0);
  return dir;
}

function stateOf(dir: string): DashboardState {
  return new DashboardState(makeContext(io(dir), { json: false, quiet: false, cwd: dir, color: false }), createFileBackend(dir));
}

describe('the dashboard state', () => {
  test('reads the campaign with its graph facts: waves, ready set, critical path, leases, blocks and their cascade', async () => {
    const dir = await project();
    expect(await ratchet(dir, ['campaign', 'ready', '--claim', 'alice', '--lease', '10m'])).toBe(0);
    expect(await ratchet(dir, ['campaign', 'update-task', '1', 'complete', '--runner', 'alice'])).toBe(0);
    expect(await ratchet(dir, ['campaign', 'ready', '--claim', 'bob', '--lease', '5m'])).toBe(0);
    expect(await ratchet(dir, ['campaign', 'update-task', '3', 'blocked', '--reason', 'no designer'])).toBe(0);
    const state = stateOf(dir);
    await state.refresh();
    const s = state.snapshot();
    expect(s.errors).toEqual([]);
    const c = s.campaign!;
    expect(c.objective).toBe('Ship it');
    expect(c.counts).toEqual({ pending: 2, in_progress: 1, complete: 1, blocked: 1 });
    expect(c.waves).toBe(4);
    expect(c.tasks.map((t) => t.wave)).toEqual([0, 1, 1, 2, 3]);
    // 2 (in progress) -> 4 -> 5 and 3 (blocked) -> 4 -> 5 tie; the first dependency wins.
    expect(c.criticalPath).toEqual([2, 4, 5]);
    const api = c.tasks.find((t) => t.seq === 2)!;
    expect(api.lease).toMatchObject({ runner: 'bob', attempt: 1, expired: false });
    expect(Date.parse(api.lease!.until) - Date.now()).toBeGreaterThan(4 * 60_000);
    const e2e = c.tasks.find((t) => t.seq === 4)!;
    expect(e2e.unreachable).toEqual({ blockedBy: [3], rootCause: 3 });
    expect(c.tasks.find((t) => t.seq === 3)!.reason).toBe('no designer');
    // User data stays data: the description is carried as it was written.
    expect(c.tasks[0]!.description).toBe('<img src=x onerror="window.__pwned=1">');
  });

  test('a campaign file that does not parse is an error with its place; every other section still reads', async () => {
    const dir = await project();
    expect(await ratchet(dir, ['init'])).toBe(0);
    expect(await ratchet(dir, ['task', 'start', '--task-id', 't-1'])).toBe(0);
    const good = stateOf(dir);
    await good.refresh();
    expect(good.snapshot().session?.state).toBe('PLANNING');
    writeFileSync(join(dir, '.ratchet', 'campaign.json'), '{\n  "id": "x",\n  "tasks": [\n    {"seq": 1,,}\n  ]\n}\n');
    const state = stateOf(dir);
    await state.refresh();
    const s = state.snapshot();
    expect(s.campaign).toBeNull();
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatchObject({ source: 'campaign', file: '.ratchet/campaign.json', line: 4 });
    expect(s.errors[0]!.column).toBeGreaterThan(0);
    expect(s.session?.taskId).toBe('t-1');
    // The same state object, refreshed: the error is reported, not thrown.
    await good.refresh(new Set(['campaign']));
    expect(good.snapshot().errors[0]).toMatchObject({ source: 'campaign', line: 4 });
  });

  test('a truncated session file and a bad refusal record are errors with their places', async () => {
    const dir = await project();
    writeFileSync(join(dir, '.ratchet', 'session.json'), '{"taskId": "t-1", "state":');
    mkdirSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(join(dir, '.ratchet', 'refusals.log.jsonl'), `${JSON.stringify(refusalRecord({ time: new Date(), event: 'stop', decision: 'block', reason: 'x' }))}\n{"v":1,"time":"nope"}\n`);
    const state = stateOf(dir);
    await state.refresh();
    const s = state.snapshot();
    expect(s.campaign?.tasks).toHaveLength(5);
    const bySource = Object.fromEntries(s.errors.map((e) => [e.source, e]));
    expect(bySource.session).toMatchObject({ file: '.ratchet/session.json', line: 1 });
    expect(bySource.refusals).toMatchObject({ file: '.ratchet/refusals.log.jsonl', line: 2 });
    expect(bySource.refusals!.message).toContain('time');
    // Records before the bad one still count.
    expect(s.refusals.total).toBe(1);
  });

  test('a patch carries only the tasks that changed; a new dependency asks for a new layout', async () => {
    const dir = await project();
    const state = stateOf(dir);
    await state.refresh();
    expect(await state.refresh(new Set(SECTIONS))).toBeUndefined();
    expect(await ratchet(dir, ['campaign', 'ready', '--claim', 'alice', '--lease', '10m'])).toBe(0);
    const claimed = await state.refresh(new Set(['campaign']));
    expect(claimed?.tasks?.changed.map((t) => t.seq)).toEqual([1]);
    expect(claimed?.tasks?.changed[0]!.lease?.runner).toBe('alice');
    expect(claimed?.relayout).toBeUndefined();
    writeFileSync(join(dir, 'more.json'), JSON.stringify({ tasks: [{ seq: 6, slug: 'release', delta: ['f'], verify: 'true', depends: [5] }] }));
    expect(await ratchet(dir, ['campaign', 'add-tasks', 'more.json'])).toBe(0);
    const added = await state.refresh(new Set(['campaign']));
    expect(added?.relayout).toBe(true);
    expect(added?.tasks?.changed.map((t) => t.seq)).toContain(6);
  });

  test('what waits for the user: user-owned actions, confirmations and proposals, each with its command', async () => {
    const dir = await project();
    expect(await ratchet(dir, ['actions', 'add', 'user_task', 'Provide the sandbox keys', '--owner', 'user'])).toBe(0);
    expect(await ratchet(dir, ['actions', 'add', 'agent_task', 'Write the migration'])).toBe(0);
    expect(await ratchet(dir, ['actions', 'add', 'no_such_type', 'Rotate the keys'])).toBe(0);
    const state = stateOf(dir);
    await state.refresh();
    const waiting = state.snapshot().waiting;
    expect(waiting.map((w) => [w.kind, w.command])).toEqual([
      ['confirmation', 'ratchet actions confirm a1 --as user'],
      ['confirmation', 'ratchet actions confirm a3 --as user'],
      ['proposal', expect.stringContaining('ratchet proposals review p1 approve --as user')],
    ]);
    // The agent's own action is not the user's to do.
    expect(waiting.some((w) => w.title === 'Write the migration')).toBe(false);
  });
});

describe('which changes wake which section', () => {
  test.each([
    ['.ratchet/campaign.json', ['campaign']],
    ['.ratchet/queues/campaign/x.json', ['campaign']],
    ['.ratchet/session.json', ['session']],
    ['.ratchet/flows/s1.json', ['flows']],
    ['.jixo/docs.log.md', ['jixo']],
    ['.ratchet/goals.json', ['goals']],
    ['logs/activity.log.jsonl', ['activity']],
    ['.ratchet/refusals.log.jsonl', ['refusals']],
    ['.ratchet/campaign.json.lock', []],
    ['.ratchet/campaign.json.digest', []],
    // A write renames its temp file over the target; the event may name only the temp file.
    ['.ratchet/.campaign.json.19954.42790501145c.tmp', ['campaign']],
    ['.ratchet/queues/campaign/.x.json.19954.554e380a60c9.tmp', ['campaign']],
    ['.ratchet/.campaign.json.lock.19954.e58526452739.tmp', []],
    ['.ratchet/.campaign.json.digest.19954.8adbfbb9fc2f.tmp', []],
    ['src/index.ts', []],
  ])('%s', (path, sections) => {
    expect(sectionsFor(path)).toEqual(sections);
  });
});

describe('the refusal log', () => {
  test('each hook check is named by its rule', () => {
    expect(refusalRules('deny', 'Ratchet: .ratchet/campaign.json is Ratchet state; only `ratchet` writes it')).toEqual(['state-file']);
    expect(refusalRules('deny', 'Ratchet: Write of src/a.ts refused: task t1 is PLANNING: no project file is written before a plan is accepted.')).toEqual(['no-write-before-plan']);
    expect(refusalRules('deny', 'Ratchet: Write of src/a.ts refused: task t1 is POST_MORTEM: only the post-mortem postmortems/t1.md may be written now.')).toEqual(['post-mortem-only']);
    expect(refusalRules('deny', 'Ratchet: the current plan step is `run_tests` (plans/p.txt, step 2); Write of a does not belong to it.')).toEqual(['plan-step']);
    const stop = 'Ratchet: you cannot stop yet; this session still has open obligations:\n- task t1 is PLANNING: plan\n  next: `ratchet run plan`\n- flow reasoning session s1 is EXECUTING\n  next: `x`\n- campaign task 003 (api) is claimed by r1 and still in_progress\n  next: `y`\n- r1 holds the JIXO log lock on a.log.md\n  next: `z`';
    expect(refusalRules('block', stop)).toEqual(['stop-open-task', 'stop-open-flow', 'stop-claimed-task', 'stop-jixo-lock']);
    expect(refusalRules('deny', 'something new')).toEqual(['other']);
  });

  test('records are validated: a record missing its rules or with a bad time is refused with its field', () => {
    const good = refusalRecord({ time: new Date('2030-01-01T00:00:00Z'), event: 'pre-tool-use', decision: 'deny', reason: 'x'.repeat(5000), tool: 'Write' });
    expect(good.reason.length).toBe(2000);
    expect(refusalValidator.safeParse(good).success).toBe(true);
    const bad = refusalValidator.safeParse({ ...good, rules: [], time: 'yesterday', __proto__: { polluted: true } });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues.map((i) => i.path[0])).toEqual(['time', 'rules']);
    expect(refusalValidator.safeParse(null).success).toBe(false);
  });

  test('the hooks\' hand-written check agrees with the zod schema the shipped JSON Schema comes from', () => {
    const junk = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.string({ maxLength: 3 }), fc.constant([]), fc.constant({}));
    const orJunk = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 10, arbitrary: arb }, { weight: 1, arbitrary: junk });
    const record = fc.record(
      {
        v: orJunk(fc.constant(1)),
        time: orJunk(fc.oneof(fc.constant('2030-01-01T00:00:00.000Z'), fc.constant('not a time'))),
        event: orJunk(fc.constantFrom('pre-tool-use', 'stop', '')),
        decision: orJunk(fc.constantFrom('deny', 'block', 'allow')),
        rules: orJunk(fc.array(orJunk(fc.constantFrom('state-file', 'plan-step')), { maxLength: 3 })),
        reason: orJunk(fc.string({ maxLength: 5 })),
        tool: orJunk(fc.string({ maxLength: 3 })),
        session: orJunk(fc.string({ maxLength: 3 })),
      },
      { requiredKeys: ['v', 'time', 'event', 'decision', 'rules', 'reason'] },
    );
    fc.assert(
      fc.property(orJunk(record), (value) => {
        expect(refusalValidator.safeParse(value).success, JSON.stringify(value)).toBe(RefusalRecordSchema.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the HTTP server', () => {
  async function serving(): Promise<{ port: number; close: () => Promise<void> }> {
    const snapshot = { format: 'ratchet-dashboard/1' } as unknown as Snapshot;
    const dir = temp();
    for (const { file } of Object.values(PAGE_FILES)) writeFileSync(join(dir, file), `file ${file}`);
    const server = createDashboardServer({ assetsDir: dir, snapshot: () => snapshot });
    const { port } = await server.listen(0, '127.0.0.1');
    return { port, close: () => server.close() };
  }

  function get(port: number, path: string, options: { method?: string; host?: string } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${port}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('serves the page with a strict content security policy, and nothing but its own files', async () => {
    const { port, close } = await serving();
    try {
      const page = await get(port, '/');
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
      expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['access-control-allow-origin']).toBeUndefined();
      expect((await get(port, '/api/snapshot')).body).toBe('{"format":"ratchet-dashboard/1"}');
      for (const path of ['/../package.json', '/%2e%2e/package.json', '/app.js/../../etc/passwd', '/index.html', '/dist/cli.cjs']) expect((await get(port, path)).status, path).toBe(404);
    } finally {
      await close();
    }
  });

  test('read-only: every method but GET and HEAD is refused', async () => {
    const { port, close } = await serving();
    try {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        const r = await get(port, '/api/snapshot', { method });
        expect(r.status, method).toBe(405);
        expect(r.headers.allow).toBe('GET, HEAD');
      }
      expect((await get(port, '/', { method: 'HEAD' })).status).toBe(200);
    } finally {
      await close();
    }
  });

  test('a request naming another host (DNS rebinding) is refused; the loopback names are the same machine', async () => {
    const { port, close } = await serving();
    try {
      expect((await get(port, '/api/snapshot', { host: `evil.example:${port}` })).status).toBe(421);
      expect((await get(port, '/api/snapshot', { host: 'evil.example' })).status).toBe(421);
      expect((await get(port, '/api/snapshot', { host: `localhost:${port}` })).status).toBe(200);
      expect((await get(port, '/api/snapshot', { host: `[::1]:${port}` })).status).toBe(200);
    } finally {
      await close();
    }
  });

  test('isLoopback', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com', '128.0.0.1']) expect(isLoopback(h), h).toBe(false);
  });
});

describe('the wave layout (graphs too large for the Sugiyama layout)', () => {
  test('one column per wave, no two nodes overlap, cycles in a last column', () => {
    const tasks = [
      { seq: 1, depends: [], wave: 0 },
      { seq: 2, depends: [1], wave: 1 },
      { seq: 3, depends: [1], wave: 1 },
      { seq: 4, depends: [2, 3], wave: 2 },
      { seq: 5, depends: [6], wave: -1 },
      { seq: 6, depends: [5], wave: -1 },
    ];
    const { x, y, width, height } = waveLayout(tasks);
    expect(new Set([x[0], x[1], x[3], x[4]]).size).toBe(4);
    expect(x[1]).toBe(x[2]);
    expect(x[4]).toBe(x[5]);
    expect(x[4]).toBeGreaterThan(x[3]!);
    for (let i = 0; i < tasks.length; i++) {
      expect(x[i]! - NODE_W / 2).toBeGreaterThanOrEqual(0);
      expect(x[i]! + NODE_W / 2).toBeLessThanOrEqual(width);
      expect(y[i]! + NODE_H / 2).toBeLessThanOrEqual(height);
      for (let j = 0; j < i; j++) expect(x[i] !== x[j] || Math.abs(y[i]! - y[j]!) >= NODE_H).toBe(true);
    }
  });

  test('10,000 tasks: every one placed, linear time', () => {
    const tasks = Array.from({ length: 10_000 }, (_, i) => ({ seq: i + 1, depends: i === 0 ? [] : [Math.max(1, i - (i % 7))], wave: Math.floor(i / 20) }));
    const { x, y } = waveLayout(tasks);
    expect(x.every((v) => Number.isFinite(v) && v > 0)).toBe(true);
    expect(new Set(Array.from(x, (v, i) => `${v},${y[i]}`)).size).toBe(10_000);
  });
});
