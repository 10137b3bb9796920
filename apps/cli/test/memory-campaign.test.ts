import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

async function ratchet(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

interface Failure {
  name: string;
  trigger: string;
  source: string[];
  times_failed: number;
  times_helped: number;
}

/** Two independent build tasks over the same native dependency, both after a spec. */
const PLAN = {
  objective: 'Add password hashing',
  tasks: [
    { seq: 1, slug: 'spec', type: 'SPEC', delta: ['test/hash.test.ts'], verify: 'true', depends: 'none' },
    { seq: 2, slug: 'bcrypt-hashing', type: 'BUILD', delta: ['src/hash.ts'], verify: 'npm test', depends: 1 },
    { seq: 3, slug: 'bcrypt-compare', type: 'BUILD', delta: ['src/compare.ts'], verify: 'npm test', depends: 1 },
  ],
};

async function campaignWithBlockedSibling(dir: string): Promise<void> {
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(PLAN));
  for (const argv of [
    ['campaign', 'create', PLAN.objective],
    ['campaign', 'add-tasks', 'plan.json'],
    ['campaign', 'ready', '--claim', 'b1'],
    ['workspace', 'create', '1'],
    ['workspace', 'complete', '1', '--delivered', 'spec written'],
    ['campaign', 'update-task', '1', 'complete', '--runner', 'b1'],
    ['campaign', 'ready', '--claim', 'b1'],
    ['workspace', 'create', '2'],
    ['workspace', 'block', '2', '--reason', 'bcrypt native build fails: gyp ERR! node-gyp rebuild on node 20\nprebuilt binaries are missing for this platform'],
  ]) {
    const r = await ratchet(dir, ...argv);
    expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
  }
}

describe('memory x campaign (composed by the CLI)', () => {
  test('memory observe learns the blocked workspace as a failure, from the active campaign', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(dir);
    const r = await ratchet(dir, '--json', 'memory', 'observe');
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out) as { observed: number; applied: { failures: { status: string; verdict: string }[]; patterns: unknown[] } };
    expect(doc.observed).toBe(2); // the completed spec and the blocked build; nothing active
    expect(doc.applied.failures).toEqual([expect.objectContaining({ status: 'added', verdict: 'UNVERIFIED' })] as unknown[]);
    expect(doc.applied.patterns).toEqual([]); // a routine completion is not a pattern
    const memory = JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: Failure[] };
    expect(memory.failures).toHaveLength(1);
    expect(memory.failures[0]!.trigger).toBe('bcrypt native build fails: gyp ERR! node-gyp rebuild on node 20');
    // Observing again merges instead of adding twice.
    const again = JSON.parse((await ratchet(dir, '--json', 'memory', 'observe')).out) as { applied: { failures: { status: string }[] } };
    expect(again.applied.failures.map((f) => f.status)).toEqual(['merged']);
  });

  test("a later workspace gets the remembered failure as prior knowledge (injected from memory), --no-memory leaves it out", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(dir);
    expect((await ratchet(dir, 'memory', 'observe')).code).toBe(0);
    expect((await ratchet(dir, 'campaign', 'ready', '--claim', 'b2')).code).toBe(0);
    const r = await ratchet(dir, '--json', 'workspace', 'create', '3');
    expect(r.code, r.err).toBe(0);
    const failures = (JSON.parse(r.out) as { workspace: { priorKnowledge: { failures: { name: string; injected: boolean }[] } } }).workspace.priorKnowledge.failures;
    // From memory (injected, feedback tracked) and as this campaign's sibling failure (ephemeral).
    expect(failures.filter((f) => f.injected)).toHaveLength(1);
    expect(failures.filter((f) => !f.injected).map((f) => f.name)).toEqual(['sibling-002_bcrypt-hashing_blocked']);

    const other = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(other);
    expect((await ratchet(other, 'memory', 'observe')).code).toBe(0);
    expect((await ratchet(other, 'campaign', 'ready', '--claim', 'b2')).code).toBe(0);
    const bare = JSON.parse((await ratchet(other, '--json', 'workspace', 'create', '3', '--no-memory')).out) as { workspace: { priorKnowledge: { failures: { injected: boolean }[] } } };
    expect(bare.workspace.priorKnowledge.failures.filter((f) => f.injected)).toEqual([]);
  });

  test('prior knowledge is queried by objective and files, not the task type; injection counts as an access', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    const plan = {
      objective: 'Ship the billing service',
      tasks: [
        { seq: 1, slug: 'jwt-auth', type: 'BUILD', description: 'Sign session tokens for the API', delta: ['src/auth/jwt.ts'], verify: 'npm test', depends: 'none' },
      ],
    };
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    for (const argv of [
      ['memory', 'add-failure', '--name', 'native-build', '--trigger', 'BUILD failed: native build of sharp needs libvips', '--fix', 'apt-get install libvips-dev', '--cost', '3000'],
      ['memory', 'add-failure', '--name', 'jwt-secret', '--trigger', 'Error: JWT_SECRET is not defined when signing', '--fix', 'load .env.test in the test setup', '--cost', '3000'],
      ['campaign', 'create', plan.objective],
      ['campaign', 'add-tasks', 'plan.json'],
      ['campaign', 'ready', '--claim', 'b1'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
    }
    const r = await ratchet(dir, '--json', 'workspace', 'create', '1');
    expect(r.code, r.err).toBe(0);
    const failures = (JSON.parse(r.out) as { workspace: { priorKnowledge: { failures: { name: string }[] } } }).workspace.priorKnowledge.failures;
    expect(failures.map((f) => f.name)).toEqual(['jwt-secret']);
    const memory = JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: (Failure & { access_count: number; last_accessed: string | null })[] };
    const byName = new Map(memory.failures.map((f) => [f.name, f]));
    expect(byName.get('jwt-secret')!.access_count).toBe(1);
    expect(byName.get('jwt-secret')!.last_accessed).not.toBeNull();
    expect(byName.get('native-build')!.access_count).toBe(0);
  });

  test('the builder reporting a used entry turns into feedback on observe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(dir);
    expect((await ratchet(dir, 'memory', 'observe')).code).toBe(0);
    const name = (JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: Failure[] }).failures[0]!.name;
    expect((await ratchet(dir, 'campaign', 'ready', '--claim', 'b2')).code).toBe(0);
    expect((await ratchet(dir, 'workspace', 'create', '3')).code).toBe(0);
    expect((await ratchet(dir, 'workspace', 'complete', '3', '--delivered', 'used the prebuilt bcryptjs instead', '--utilized', `${name}:failure`)).code).toBe(0);
    expect((await ratchet(dir, 'memory', 'observe')).code).toBe(0);
    const failure = (JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: Failure[] }).failures[0]!;
    expect(failure.times_helped).toBe(1);
    // Observing again (after the next wave, say) does not count the same report twice.
    const again = await ratchet(dir, 'memory', 'observe');
    expect(again.out).toContain(`feedback  ${name} helped (not applied: already counted when this workspace was observed before)`);
    expect((JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: Failure[] }).failures[0]!.times_helped).toBe(1);
  });

  test('observe runs verify commands only with --verify: in a child process, CONFIRMED when still failing, FALSE_POSITIVE (not learned) when passing now', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    // Two blocked builds: one whose verify still fails, one whose verify passes now. Each leaves a mark when run.
    writeFileSync(
      join(dir, 'plan.json'),
      JSON.stringify({
        objective: 'Add password hashing',
        tasks: [
          { seq: 1, slug: 'bcrypt-hashing', delta: ['src/hash.ts'], verify: 'echo ran >> verify-1.log; exit 1' },
          { seq: 2, slug: 'argon-hashing', delta: ['src/argon.ts'], verify: 'echo ran >> verify-2.log; exit 0' },
        ],
      }),
    );
    for (const argv of [
      ['campaign', 'create', 'Add password hashing'],
      ['campaign', 'add-tasks', 'plan.json'],
      ['workspace', 'create', '1'],
      ['workspace', 'block', '1', '--reason', 'bcrypt native build fails: gyp ERR! node-gyp rebuild on node 20'],
      ['workspace', 'create', '2'],
      ['workspace', 'block', '2', '--reason', 'argon2 prebuilt binary missing for linux-arm64 musl'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
    }
    const plain = JSON.parse((await ratchet(dir, '--json', 'memory', 'observe', '--file', 'plain.json')).out) as { observation: { failures: { verdict: string }[] } };
    expect(plain.observation.failures.map((f) => f.verdict)).toEqual(['UNVERIFIED', 'UNVERIFIED']);
    expect(existsSync(join(dir, 'verify-1.log')) || existsSync(join(dir, 'verify-2.log'))).toBe(false);

    const r = await ratchet(dir, '--json', 'memory', 'observe', '--verify', '--file', 'verified.json');
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out) as { observation: { failures: { workspace: string; verdict: string; learn: boolean }[] } };
    expect(doc.observation.failures.map((f) => [f.workspace, f.verdict, f.learn])).toEqual([
      ['001_bcrypt-hashing', 'CONFIRMED', true],
      ['002_argon-hashing', 'FALSE_POSITIVE', false],
    ]);
    expect(readFileSync(join(dir, 'verify-1.log'), 'utf8')).toBe('ran\n');
    expect(readFileSync(join(dir, 'verify-2.log'), 'utf8')).toBe('ran\n');
    const learned = JSON.parse(readFileSync(join(dir, 'verified.json'), 'utf8')) as { failures: Failure[] };
    expect(learned.failures.map((f) => f.trigger)).toEqual(['bcrypt native build fails: gyp ERR! node-gyp rebuild on node 20']);
  });

  test('observe --verify with --timeout-ms: a verify command that hangs is killed and reported as TIMEOUT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ objective: 'x', tasks: [{ seq: 1, slug: 'slow', delta: ['a.ts'], verify: 'sleep 30' }] }));
    for (const argv of [['campaign', 'create', 'x'], ['campaign', 'add-tasks', 'plan.json'], ['workspace', 'create', '1'], ['workspace', 'block', '1', '--reason', 'integration suite never finishes on CI runners']]) {
      expect((await ratchet(dir, ...argv)).code).toBe(0);
    }
    const r = await ratchet(dir, '--json', 'memory', 'observe', '--verify', '--timeout-ms', '300');
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { observation: { failures: { verdict: string }[] } }).observation.failures[0]!.verdict).toBe('TIMEOUT');
  });

  test('a retried task through the CLI: a fresh workspace with why the last attempt failed; observe counts each attempt once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(dir);
    expect((await ratchet(dir, 'memory', 'add-failure', '--trigger', 'node-gyp rebuild fails without python3', '--fix', 'install python3 and make', '--cost', '1500', '--name', 'gyp-python')).code).toBe(0);
    expect((await ratchet(dir, 'memory', 'observe')).code).toBe(0); // attempt 1 of 002 is observed while it is the live blocked file
    expect((await ratchet(dir, 'campaign', 'update-task', '2', 'blocked', '--runner', 'b1', '--reason', 'bcrypt')).code).toBe(0);
    expect((await ratchet(dir, 'campaign', 'update-task', '2', 'pending')).code).toBe(0);
    // Before the fix this was "workspace-exists" (exit 2): 002_bcrypt-hashing_blocked.xml was in the way.
    const retry = await ratchet(dir, 'workspace', 'create', '2');
    expect(retry.code, retry.err).toBe(0);
    expect(retry.out).toContain('created .ratchet/workspace/002_bcrypt-hashing_active.xml (attempt 2; the failed ones are kept beside it)');
    expect(retry.out).toContain('- earlier attempt attempt-002_bcrypt-hashing_blocked.1: bcrypt native build fails: gyp ERR! node-gyp rebuild on node 20');
    expect(readdirSync(join(dir, '.ratchet/workspace')).filter((n) => n.endsWith('.xml')).sort()).toEqual(['001_spec_complete.xml', '002_bcrypt-hashing_active.xml', '002_bcrypt-hashing_blocked.1.xml']);
    const shown = JSON.parse((await ratchet(dir, '--json', 'workspace', 'show', '2')).out) as { workspace: { attempt: number; priorKnowledge: { failures: { name: string; fix: string; injected: boolean }[] } } };
    expect(shown.workspace.attempt).toBe(2);
    expect(shown.workspace.priorKnowledge.failures[0]).toMatchObject({ name: 'attempt-002_bcrypt-hashing_blocked.1', fix: 'prebuilt binaries are missing for this platform', injected: false });
    const listed = await ratchet(dir, 'workspace', 'list');
    expect(listed.out).toMatch(/002_bcrypt-hashing #2 +active/);
    expect(listed.out).toMatch(/002_bcrypt-hashing #1 \(earlier\) +blocked +bcrypt native build fails/);

    // Attempt 2 succeeds using a memory entry (helped) and the earlier attempt (not memory's: no feedback).
    const used = ['--utilized', 'gyp-python:failure', '--utilized', 'attempt-002_bcrypt-hashing_blocked.1:failure'];
    expect((await ratchet(dir, 'workspace', 'complete', '2', '--delivered', 'switched to bcryptjs, no native build', ...used)).code).toBe(0);
    const observed = JSON.parse((await ratchet(dir, '--json', 'memory', 'observe')).out) as { observed: number; applied: { failures: { workspace: string; status: string }[]; feedback: { workspace: string; name: string; applied: boolean }[] } };
    expect(observed.observed).toBe(3); // 001, 002 attempt 1 (kept), 002 attempt 2
    expect(observed.applied.failures.map((f) => [f.workspace, f.status])).toEqual([['002_bcrypt-hashing', 'merged']]);
    expect(observed.applied.feedback.map((f) => [f.workspace, f.name, f.applied])).toEqual([['002_bcrypt-hashing#2', 'gyp-python', true]]);
    const again = JSON.parse((await ratchet(dir, '--json', 'memory', 'observe')).out) as { applied: { feedback: { applied: boolean }[] } };
    expect(again.applied.feedback.map((f) => f.applied)).toEqual([false]);
    const memory = JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: Failure[]; observed: string[] };
    expect(memory.failures.find((f) => f.name === 'gyp-python')!.times_helped).toBe(1);
    expect(memory.failures.filter((f) => f.name !== 'gyp-python')).toHaveLength(1);
    expect(memory.observed.filter((o) => o.endsWith('002_bcrypt-hashing#2'))).toHaveLength(1);
  });

  test('observe --verify after a retry fixed the task: the block is learned as CONFIRMED with the fix the retry made, not called FALSE_POSITIVE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    // `true` passes now, after the fix: re-running it is exactly what made FTL drop real failures.
    const plan = { objective: 'Serve the API', tasks: [{ seq: 1, slug: 'server', type: 'BUILD', delta: ['src/server.ts'], verify: 'true', depends: 'none' }] };
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    for (const argv of [
      ['campaign', 'create', plan.objective],
      ['campaign', 'add-tasks', 'plan.json'],
      ['campaign', 'ready', '--claim', 'b1'],
      ['workspace', 'create', '1'],
      ['workspace', 'block', '1', '--reason', 'Error: listen EADDRINUSE: address already in use 127.0.0.1:3000'],
      ['campaign', 'update-task', '1', 'blocked', '--runner', 'b1', '--reason', 'port'],
      ['campaign', 'update-task', '1', 'pending'],
      ['workspace', 'create', '1'],
      ['workspace', 'complete', '1', '--delivered', 'The test server listens on port 0 and reports the port it got.\nPattern: let the OS pick a free port in tests (listen on 0)'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
    }
    const r = await ratchet(dir, 'memory', 'observe', '--verify');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/failure +001_server: added \S+ \(CONFIRMED: fixed by 001_server#2\)/);
    expect(r.out).toMatch(/link +\S+ solves \S+/);
    const memory = JSON.parse(readFileSync(join(dir, '.ratchet/memory.json'), 'utf8')) as { failures: (Failure & { fix: string; match: string | null })[] };
    expect(memory.failures).toHaveLength(1);
    expect(memory.failures[0]!.fix).toContain('The test server listens on port 0');
    expect(new RegExp(memory.failures[0]!.match!, 'i').test('Error: listen EADDRINUSE: address already in use :::8080')).toBe(true);
  });

  test('a pattern refused by a quality gate says which gate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    // The task's own objective (its description) is the pattern's trigger, and "auth" is too short.
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ objective: 'Add authentication', tasks: [{ seq: 1, slug: 'login', description: 'auth', delta: ['src/login.ts'], verify: 'npm test' }] }));
    for (const argv of [
      ['campaign', 'create', 'Add authentication'],
      ['campaign', 'add-tasks', 'plan.json'],
      ['workspace', 'create', '1'],
      ['workspace', 'block', '1', '--reason', 'jsonwebtoken rejects the RS256 key format'],
      ['campaign', 'update-task', '1', 'blocked', '--reason', 'key'],
      ['campaign', 'update-task', '1', 'pending'],
      ['workspace', 'create', '1'],
      ['workspace', 'complete', '1', '--delivered', 'Pattern: convert the PEM key with createPublicKey before jwt.verify'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(0);
    }
    const r = await ratchet(dir, 'memory', 'observe');
    expect(r.out).toContain('pattern   001_login#2: refused: trigger is 4 characters; at least 10 are needed');
  });

  test('observe on an unknown or hostile campaign id is an input error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(dir);
    const r = await ratchet(dir, 'memory', 'observe', '../../etc');
    expect(r.code).toBe(2);
    expect(r.err).toContain('not a campaign id');
  });
});
