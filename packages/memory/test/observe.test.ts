import { describe, expect, test } from 'vitest';
import { applyObservation, observe, runVerifyCommand, type VerifyRunner, type WorkspaceRecord } from '../src/index.js';
import { emptyMemory, failure, NOW, pattern, tempDir } from './support.js';

const base = { objective: '', delta: [], verify: 'npm test', delivered: '' };

const blocked: WorkspaceRecord = {
  ...base,
  seq: 2,
  slug: 'auth-api',
  status: 'blocked',
  objective: 'add token refresh to the auth API',
  delta: ['src/auth.ts'],
  budget: 4,
  delivered: 'BLOCKED: jsonwebtoken verify throws TokenExpiredError before refresh runs\nCatch TokenExpiredError in the middleware and refresh there.',
};

const recovery: WorkspaceRecord = {
  ...base,
  seq: 3,
  slug: 'auth-middleware',
  status: 'complete',
  objective: 'refresh expired tokens in the auth middleware',
  delta: ['src/auth.ts', 'src/middleware.ts'],
  delivered: 'Moved refresh into the middleware.\nPattern: catch TokenExpiredError in middleware and refresh before the handler runs',
  utilization: [
    { name: 'jwt-expiry', type: 'failure', outcome: 'helped' },
    { name: 'sibling-002_auth-api', type: 'failure', outcome: 'helped' },
    { name: 'ghost', type: 'pattern', outcome: 'failed' },
  ],
};

const routine: WorkspaceRecord = {
  ...base,
  seq: 1,
  slug: 'readme',
  status: 'complete',
  objective: 'document the configuration options in the README',
  delta: ['README.md'],
  delivered: 'Documented every option with its default. '.repeat(6),
};

describe('observe', () => {
  test('a block its retry fixed: the recorded result stands (verify, passing now, would call it FALSE_POSITIVE); the fix is what the retry changed', async () => {
    const first: WorkspaceRecord = { ...base, seq: 5, slug: 'api', status: 'blocked', objective: 'serve the API', delta: ['src/server.ts'], delivered: 'BLOCKED: Error: listen EADDRINUSE: address already in use 127.0.0.1:3000' };
    const retry: WorkspaceRecord = { ...first, attempt: 2, status: 'complete', delta: ['src/server.ts', 'test/setup.ts'], delivered: 'Tests now pick a free port (PORT=0) and read it back from the server.' };
    const calls: string[] = [];
    const passingNow: VerifyRunner = (command) => {
      calls.push(command);
      return Promise.resolve({ exitCode: 0, timedOut: false, output: '' });
    };
    const o = await observe([first, retry], { campaign: 'c', verify: passingNow });
    expect(o.failures).toHaveLength(1);
    expect(o.failures[0]).toMatchObject({ workspace: '005_api', fixedBy: '005_api#2', verdict: 'CONFIRMED', learn: true });
    expect(calls).toEqual([]); // not re-run: the tree has the fix now
    expect(o.failures[0]!.input.fix).toBe('Fixed on attempt 2 (005_api#2): Tests now pick a free port (PORT=0) and read it back from the server. Files changed: src/server.ts, test/setup.ts.');
    expect(o.failures[0]!.input.tags).toContain('fixed-by-retry');
    // The derived match generalises the address: the same failure on another port matches.
    const match = new RegExp(o.failures[0]!.input.match!, 'i');
    expect(match.test('Error: listen EADDRINUSE: address already in use 0.0.0.0:8080')).toBe(true);
    expect(match.test('Error: listen EACCES: permission denied 0.0.0.0:80')).toBe(false);
    // The retry that got past it is a pattern that solves it (a recovery with a substantive first line).
    const data = emptyMemory();
    const applied = applyObservation(data, o, { now: NOW });
    const failureName = applied.failures[0]!.name!;
    const patternName = applied.patterns[0]?.name;
    expect(patternName).toBeDefined();
    expect(applied.links).toContainEqual({ from: patternName, to: failureName, type: 'solves' });
    expect(data.failures[0]!.related_typed.solved_by).toEqual([patternName]);
    // Observing again does not link twice.
    expect(applyObservation(data, o, { now: NOW }).links).toEqual([]);
  });

  test('failures of one task, or on the same files, co-occur', async () => {
    const a: WorkspaceRecord = { ...base, seq: 7, slug: 'db', status: 'blocked', delta: ['src/db.ts'], delivered: 'BLOCKED: SqliteError: database is locked (SQLITE_BUSY)' };
    const b: WorkspaceRecord = { ...base, seq: 8, slug: 'seed', status: 'blocked', delta: ['src/db.ts', 'scripts/seed.ts'], delivered: 'BLOCKED: migrations table missing: run migrate before seeding' };
    const c: WorkspaceRecord = { ...base, seq: 9, slug: 'css', status: 'blocked', delta: ['src/app.css'], delivered: 'BLOCKED: stylesheet classes vanish after purge in production' };
    const data = emptyMemory();
    const applied = applyObservation(data, await observe([a, b, c], { campaign: 'c' }), { now: NOW });
    expect(applied.links.map((l) => l.type)).toEqual(['co_occurs']);
    const names = applied.failures.map((f) => f.name);
    expect(applied.links[0]).toMatchObject({ from: names[0], to: names[1] });
  });

  test('blocked -> failure candidate: first line is the trigger, the rest the fix, cost = budget x 1000', async () => {
    const o = await observe([blocked], { campaign: 'auth' });
    expect(o.failures).toEqual([
      {
        workspace: '002_auth-api',
        seq: 2,
        delta: ['src/auth.ts'],
        fixedBy: undefined,
        verdict: 'UNVERIFIED',
        learn: true,
        knownAs: [],
        input: {
          trigger: 'jsonwebtoken verify throws TokenExpiredError before refresh runs',
          fix: 'Catch TokenExpiredError in the middleware and refresh there.',
          cost: 4000,
          match: 'jsonwebtoken verify throws TokenExpiredError before refresh runs',
          source: ['auth/002_auth-api'],
          tags: ['observed', 'unverified'],
        },
      },
    ]);
  });

  test('with a verify runner: still failing = CONFIRMED, passing = FALSE_POSITIVE (not learned), timeout = TIMEOUT', async () => {
    const calls: string[] = [];
    const runner =
      (result: { exitCode: number | null; timedOut: boolean }): VerifyRunner =>
      (command) => {
        calls.push(command);
        return Promise.resolve({ ...result, output: '' });
      };
    expect((await observe([blocked], { campaign: 'c', verify: runner({ exitCode: 1, timedOut: false }) })).failures[0]).toMatchObject({ verdict: 'CONFIRMED', learn: true });
    expect((await observe([blocked], { campaign: 'c', verify: runner({ exitCode: 0, timedOut: false }) })).failures[0]).toMatchObject({ verdict: 'FALSE_POSITIVE', learn: false });
    expect((await observe([blocked], { campaign: 'c', verify: runner({ exitCode: null, timedOut: true }) })).failures[0]).toMatchObject({ verdict: 'TIMEOUT', learn: true });
    expect(calls).toEqual(['npm test', 'npm test', 'npm test']);
    // Within one observation each distinct command runs once (a retried task's attempts share it).
    calls.length = 0;
    const o = await observe([blocked, { ...blocked, attempt: 2 }, { ...blocked, seq: 7, verify: 'pytest -x' }], { campaign: 'c', verify: runner({ exitCode: 1, timedOut: false }) });
    expect(o.failures.map((f) => [f.workspace, f.verdict])).toEqual([
      ['002_auth-api', 'CONFIRMED'],
      ['002_auth-api#2', 'CONFIRMED'],
      ['007_auth-api', 'CONFIRMED'],
    ]);
    expect(calls).toEqual(['npm test', 'pytest -x']);
  });

  test('pattern rule: a recovery with a stated insight passes; a routine completion does not', async () => {
    const o = await observe([routine, blocked, recovery], { campaign: 'auth' });
    const [r1, r3] = o.patterns;
    expect(r1).toMatchObject({ workspace: '001_readme', score: 2, learn: false, rejected: 'score 2 < 3' });
    expect(r3).toMatchObject({ workspace: '003_auth-middleware', score: 5, learn: true });
    expect(r3!.reasons).toEqual(['+2 recovery: 002_auth-api was blocked on the same files', '+1 stated insight (pattern:)', '+1 memory helped', '+1 real verification']);
    expect(r3!.input).toMatchObject({ trigger: 'refresh expired tokens in the auth middleware', insight: 'catch TokenExpiredError in middleware and refresh before the handler runs', saved: 2500 });
  });

  test('a high score without an insight to store is still rejected', async () => {
    const o = await observe([{ ...recovery, delivered: 'x'.repeat(250), utilization: [{ name: 'a', type: 'failure', outcome: 'helped' }] }, { ...blocked, delta: ['other.ts'], objective: 'unrelated thing entirely' }], { campaign: 'c' });
    expect(o.patterns[0]).toMatchObject({ score: 3, learn: false });
    expect(o.patterns[0]!.rejected).toContain('no insight');
  });

  test('weak completions are rejected even next to a failure: a thin first line is no insight, a loosely related objective no recovery', async () => {
    // Shares the blocked workspace's file and has a real verify command (3 points), but says only "done".
    const thin: WorkspaceRecord = { ...base, seq: 5, slug: 'auth-touch', status: 'complete', objective: 'bump the auth dependency', delta: ['src/auth.ts'], delivered: 'done' };
    // Two of its words appear in the blocked objective ("auth", "api"): related, not the same work.
    const loose: WorkspaceRecord = { ...base, seq: 6, slug: 'auth-docs', status: 'complete', objective: 'document the auth API', delta: ['docs/auth.md'], delivered: 'Wrote the auth API reference with every endpoint and example.' };
    const o = await observe([blocked, thin, loose], { campaign: 'c' });
    const [p5, p6] = o.patterns;
    expect(p5).toMatchObject({ workspace: '005_auth-touch', score: 3, learn: false });
    expect(p5!.rejected).toContain('"done" is too thin');
    expect(p6).toMatchObject({ workspace: '006_auth-docs', score: 1, learn: false, rejected: 'score 1 < 3' });
    // The same recovery with a first line that says something is learned.
    const real = await observe([blocked, { ...thin, delivered: 'Pinned jsonwebtoken to 9.0.2, whose verify no longer throws before refresh.' }], { campaign: 'c' });
    expect(real.patterns[0]).toMatchObject({ learn: true, input: { insight: 'Pinned jsonwebtoken to 9.0.2, whose verify no longer throws before refresh.' } });
  });

  test('property-like sweep: of many ordinary completions, few become patterns', async () => {
    const records: WorkspaceRecord[] = [];
    for (let i = 0; i < 40; i++) records.push({ ...routine, seq: i + 1, slug: `t${i}`, objective: `implement feature ${i}`, delta: [`src/f${i}.ts`], delivered: i % 2 ? 'done' : 'Implemented it. '.repeat(20), verify: i % 3 ? 'npm test' : 'true' });
    const o = await observe(records, { campaign: 'c' });
    expect(o.patterns.filter((p) => p.learn)).toHaveLength(0);
  });

  test('utilization becomes feedback; sibling-* entries are skipped; unknown names reported', async () => {
    const data = emptyMemory();
    data.failures.push(failure('jwt-expiry', 'jsonwebtoken TokenExpiredError thrown'));
    data.patterns.push(pattern('unused', 'some pattern trigger text'));
    const o = await observe([blocked, recovery], { campaign: 'auth' });
    expect(o.feedback.map((f) => f.name)).toEqual(['jwt-expiry', 'ghost']);
    const applied = applyObservation(data, o, { now: NOW });
    expect(applied.feedback).toEqual([
      { workspace: '003_auth-middleware', source: 'auth/003_auth-middleware', name: 'jwt-expiry', outcome: 'helped', applied: true, reason: undefined },
      { workspace: '003_auth-middleware', source: 'auth/003_auth-middleware', name: 'ghost', outcome: 'failed', applied: false, reason: 'no such entry in memory' },
    ]);
    expect(data.observed).toEqual(['auth/003_auth-middleware']);
    expect(data.failures.find((f) => f.name === 'jwt-expiry')!.times_helped).toBe(1);
    expect(applied.failures[0]).toMatchObject({ status: 'added', workspace: '002_auth-api', verdict: 'UNVERIFIED' });
    expect(applied.patterns[0]).toMatchObject({ status: 'added', workspace: '003_auth-middleware' });
    // Observing the same campaign twice merges instead of duplicating, and counts no feedback twice.
    const again = applyObservation(data, o, { now: NOW });
    expect(again.failures[0]!.status).toBe('merged');
    expect(again.patterns[0]!.status).toBe('merged');
    expect(again.feedback.map((f) => [f.name, f.applied, f.reason])).toEqual([
      ['jwt-expiry', false, 'already counted when this workspace was observed before'],
      ['ghost', false, 'already counted when this workspace was observed before'],
    ]);
    expect(data.failures.find((f) => f.name === 'jwt-expiry')!.times_helped).toBe(1);
    expect(data.observed).toEqual(['auth/003_auth-middleware']);
    // The same workspace name in another campaign is another report.
    applyObservation(data, await observe([recovery], { campaign: 'other' }), { now: NOW });
    expect(data.failures.find((f) => f.name === 'jwt-expiry')!.times_helped).toBe(2);
    expect(data.observed).toEqual(['auth/003_auth-middleware', 'other/003_auth-middleware']);
  });

  test('each attempt at a retried task is its own workspace: its report counts once, the first keeps its id; attempt-* entries are skipped', async () => {
    const data = emptyMemory();
    data.failures.push(failure('jwt-expiry', 'jsonwebtoken TokenExpiredError thrown'));
    const used = [{ name: 'jwt-expiry', type: 'failure' as const, outcome: 'failed' as const }];
    // Attempt 1 blocked, observed before the retry.
    const first: WorkspaceRecord = { ...blocked, utilization: used };
    applyObservation(data, await observe([first], { campaign: 'auth' }), { now: NOW });
    expect(data.failures.find((f) => f.name === 'jwt-expiry')!.times_failed).toBe(1);
    // After the retry: attempt 1 (same record, now history), attempt 2 blocked again, attempt 3 complete.
    const second: WorkspaceRecord = { ...blocked, attempt: 2, utilization: used };
    const third: WorkspaceRecord = {
      ...recovery,
      seq: 2,
      slug: 'auth-api',
      attempt: 3,
      utilization: [
        { name: 'jwt-expiry', type: 'failure', outcome: 'helped' },
        { name: 'attempt-002_auth-api_blocked.1', type: 'failure', outcome: 'helped' },
        { name: 'sibling-004_x_blocked', type: 'failure', outcome: 'helped' },
      ],
    };
    const o = await observe([first, second, third], { campaign: 'auth' });
    expect(o.failures.map((f) => f.workspace)).toEqual(['002_auth-api', '002_auth-api#2']);
    expect(o.feedback.map((f) => [f.workspace, f.name])).toEqual([
      ['002_auth-api', 'jwt-expiry'],
      ['002_auth-api#2', 'jwt-expiry'],
      ['002_auth-api#3', 'jwt-expiry'],
    ]);
    const applied = applyObservation(data, o, { now: NOW });
    expect(applied.feedback.map((f) => [f.workspace, f.applied])).toEqual([
      ['002_auth-api', false],
      ['002_auth-api#2', true],
      ['002_auth-api#3', true],
    ]);
    const entry = data.failures.find((f) => f.name === 'jwt-expiry')!;
    expect([entry.times_failed, entry.times_helped]).toEqual([2, 1]);
    // Both blocked attempts name the same failure: one entry, both sources.
    expect(data.failures.filter((f) => f.source.some((x) => x.startsWith('auth/002_auth-api')))).toHaveLength(1);
    expect(data.failures.find((f) => f.source.includes('auth/002_auth-api#2'))!.source).toEqual(['auth/002_auth-api', 'auth/002_auth-api#2']);
    // A real entry whose name merely starts with "attempt-" still gets its feedback.
    data.failures.push(failure('attempt-to-import-a-missing-module', 'attempt to import a missing module'));
    const real = await observe([{ ...recovery, seq: 9, utilization: [{ name: 'attempt-to-import-a-missing-module', type: 'failure', outcome: 'helped' }] }], { campaign: 'auth' });
    expect(real.feedback.map((f) => f.name)).toEqual(['attempt-to-import-a-missing-module']);
  });
});

describe('runVerifyCommand (a real child process)', () => {
  test('exit codes and output', async () => {
    const cwd = tempDir();
    expect(await runVerifyCommand('echo hi && exit 3', { cwd, timeoutMs: 10_000 })).toEqual({ exitCode: 3, timedOut: false, output: 'hi\n' });
    expect((await runVerifyCommand('true', { cwd, timeoutMs: 10_000 })).exitCode).toBe(0);
  });

  test('a command that outlives the timeout is killed with its children', async () => {
    const r = await runVerifyCommand('sleep 30 & sleep 30; echo never', { cwd: tempDir(), timeoutMs: 300 });
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    expect(r.output).not.toContain('never');
  });
});
