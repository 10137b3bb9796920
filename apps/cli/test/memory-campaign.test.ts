import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    ['campaign', 'update-task', '1', 'complete'],
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
  });

  test('observe on an unknown or hostile campaign id is an input error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-memcamp-'));
    await campaignWithBlockedSibling(dir);
    const r = await ratchet(dir, 'memory', 'observe', '../../etc');
    expect(r.code).toBe(2);
    expect(r.err).toContain('not a campaign id');
  });
});
