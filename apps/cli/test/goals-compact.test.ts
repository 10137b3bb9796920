import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

async function ratchet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

describe('ratchet goals compact', { timeout: 120_000 }, () => {
  test('the user compacts; history shows the summary; revert reaches the revert point; the agent is refused and nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-compact-'));
    expect((await ratchet(dir, ['goals', 'add', 'Ship the beta', '--id', 'beta'])).code).toBe(0);
    for (let i = 1; i <= 8; i++) expect((await ratchet(dir, ['goals', 'progress', 'beta', '--set', String(i / 8), '--evidence', `ci/run/${i}`])).code).toBe(0);
    const file = join(dir, '.ratchet/goals.json');
    const before = readFileSync(file, 'utf8');

    const agent = await ratchet(dir, ['goals', 'compact', '--keep', '2'], { RATCHET_ACTOR: 'agent' });
    expect(agent.code).toBe(2);
    expect(agent.err).toContain('ratchet goals compact is for a person, from their own terminal');
    expect((await ratchet(dir, ['goals', 'compact', '--as', 'user', '--before', 'yesterday'])).code).toBe(2);
    // --expected-version is the optimistic lock here too: a stale one is refused (exit 1), nothing written.
    const stale = await ratchet(dir, ['goals', 'compact', '--as', 'user', '--keep', '2', '--expected-version', '8']);
    expect(stale.code).toBe(1);
    expect(stale.err).toContain('version conflict: expected version 8, the state is at version 9');
    expect(readFileSync(file, 'utf8')).toBe(before);

    const compacted = await ratchet(dir, ['goals', 'compact', '--as', 'user', '--keep', '2', '--expected-version', '9']);
    expect(compacted.code).toBe(0);
    expect(compacted.out).toContain('compacted 7 audit entries (v1-v7) into a summary; 2 kept; revert points: v0, v7 and later');
    expect(readFileSync(file, 'utf8').length).toBeLessThan(before.length);

    const history = await ratchet(dir, ['goals', 'history']);
    expect(history.out).toMatch(/^v1-v7 .* summary of 7 entries \(goal\.progress x6, goal\.upsert x1\) {2}3 milestones, 6 evidence refs, 0 archived {2}revert point v0$/m);
    expect(history.out).toMatch(/^v8 /m);
    const json = JSON.parse((await ratchet(dir, ['--json', 'goals', 'history'])).out) as { summaries: { evidence_refs: string[] }[]; history: unknown[] };
    expect(json.summaries[0]!.evidence_refs).toEqual(['ci/run/1', 'ci/run/2', 'ci/run/3', 'ci/run/4', 'ci/run/5', 'ci/run/6']);
    expect(json.history).toHaveLength(2);

    const inside = await ratchet(dir, ['goals', 'revert', '3', '--as', 'user']);
    expect(inside.code).toBe(2);
    expect(inside.err).toContain('cannot revert to version 3: it was compacted; revert points kept: v0, v7 and later');
    expect((await ratchet(dir, ['goals', 'revert', '7', '--as', 'user'])).code).toBe(0);
    expect((await ratchet(dir, ['goals', 'revert', '0', '--as', 'user'])).code).toBe(0);
    expect(JSON.parse((await ratchet(dir, ['--json', 'goals', 'list', '--all'])).out)).toMatchObject({ goals: [] });
  });
});
