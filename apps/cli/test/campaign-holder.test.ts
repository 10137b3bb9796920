/**
 * `campaign update-task` on a claimed task: only its holder (`--runner`) or the user (`--as user`)
 * may change it. The shortcuts a builder takes (name another runner, or name none) are refused with
 * and without a lease, and an agent cannot pass itself off as the user where RATCHET_ACTOR=agent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

async function ratchet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  const code = await run(args, io);
  return { code, out, err };
}

async function project(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-holder-cli-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ tasks: [{ seq: '001', slug: 'a', delta: ['a.js'], verify: 'true' }, { seq: '002', slug: 'b', delta: ['b.js'], verify: 'true' }] }));
  expect((await ratchet(dir, ['campaign', 'create', 'holders'])).code).toBe(0);
  expect((await ratchet(dir, ['campaign', 'add-tasks', 'plan.json'])).code).toBe(0);
  return dir;
}

describe.each([
  ['without a lease', [] as string[]],
  ['with a lease', ['--lease', '15m']],
])('update-task on a task claimed %s', (_name, lease) => {
  test('another builder, or nobody named, is refused (exit 2, naming the holder); the holder may', async () => {
    const dir = await project();
    expect((await ratchet(dir, ['campaign', 'ready', '--claim', 'builder-1', ...lease])).code).toBe(0);
    const before = readFileSync(join(dir, '.ratchet/campaign.json'), 'utf8');
    const other = await ratchet(dir, ['campaign', 'update-task', '001', 'complete', '--runner', 'builder-2']);
    expect(other.code).toBe(2);
    expect(other.err).toContain('task 001 is held by builder-1; builder-2 cannot change it');
    const nobody = await ratchet(dir, ['campaign', 'update-task', '001', 'complete']);
    expect(nobody.code).toBe(2);
    expect(nobody.err).toContain('held by builder-1');
    const json = await ratchet(dir, ['--json', 'campaign', 'update-task', '001', 'blocked', '--reason', 'not mine']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { code: 'not-holder' } });
    expect(readFileSync(join(dir, '.ratchet/campaign.json'), 'utf8')).toBe(before);
    expect((await ratchet(dir, ['campaign', 'update-task', '001', 'complete', '--runner', 'builder-1'])).code).toBe(0);
  });

  test('the user overrides with --as user; an agent environment (RATCHET_ACTOR=agent) is refused', async () => {
    const dir = await project();
    expect((await ratchet(dir, ['campaign', 'ready', '--claim', 'builder-1', ...lease])).code).toBe(0);
    const agent = await ratchet(dir, ['campaign', 'update-task', '001', 'pending', '--as', 'user'], { RATCHET_ACTOR: 'agent' });
    expect(agent.code).toBe(2);
    expect(agent.err).toContain('ratchet campaign update-task is for a person, from their own terminal; refused because this environment sets RATCHET_ACTOR=agent');
    const user = await ratchet(dir, ['campaign', 'update-task', '001', 'pending', '--as', 'user', '--reason', 'taken back']);
    expect(user.code).toBe(0);
    // Released: ready again, and the next builder gets it.
    const next = await ratchet(dir, ['--json', 'campaign', 'ready', '--claim', 'builder-2', ...lease]);
    expect(JSON.parse(next.out)).toMatchObject({ claimed: { seq: 1, runner: 'builder-2' } });
  });
});
