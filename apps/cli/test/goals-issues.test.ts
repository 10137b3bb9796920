/**
 * Frontal Cortex through the CLI: a running turn keeps the registry it started with, a merge that
 * would make a type impossible to complete is refused, `turn assess` honours --owner and --query,
 * an action's priority, due date and title can be changed (by whom the owner rules allow), and
 * `goals add` takes every field of the seed's Goal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

function project(): string {
  return mkdtempSync(join(tmpdir(), 'cli-goals-issues-'));
}

async function ratchet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string; json: () => Record<string, unknown> }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  const code = await run(args, io);
  return { code, out, err, json: () => JSON.parse(out) as Record<string, unknown> };
}

/** A proposal adding `code_review`, approved and merged by the user. */
async function mergeCodeReview(dir: string, extra: Record<string, unknown> = {}): Promise<{ code: number; out: string; err: string }> {
  writeFileSync(
    join(dir, 'p.json'),
    JSON.stringify({ proposal_type: 'add', type_id: 'code_review', display_name: 'Code review', allowed_owners: ['agent', 'user'], allowed_statuses: ['open', 'done', 'cancelled'], allowed_transitions: { open: ['done', 'cancelled'] }, rationale: 'we review every PR', ...extra }),
  );
  expect((await ratchet(dir, ['proposals', 'submit', 'p.json'])).code).toBe(0);
  expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
  return ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user']);
}

describe('a running turn keeps the registry it started with', { timeout: 60_000 }, () => {
  test('a type merged during an open turn is not usable in that turn\'s commit; the next turn uses it', async () => {
    const dir = project();
    expect((await ratchet(dir, ['turn', 'start', 't1'])).code).toBe(0);
    expect((await mergeCodeReview(dir)).code).toBe(0);
    writeFileSync(join(dir, 't1.json'), JSON.stringify({ turn_id: 't1', new_actions: [{ id: 'r1', type: 'code_review', title: 'review PR 7', owner: 'agent' }] }));
    const during = await ratchet(dir, ['--json', 'turn', 'commit', 't1.json']);
    expect(during.code, during.err).toBe(0);
    expect(during.json()).toMatchObject({ created: [{ id: 'r1', type: 'user_task', requires_confirmation: true, metadata: { requested_type: 'code_review' } }] });
    expect(during.err).toContain('turn t1 keeps the action-type registry it started with');
    // The next turn starts under the merged registry.
    expect((await ratchet(dir, ['turn', 'start', 't2'])).code).toBe(0);
    writeFileSync(join(dir, 't2.json'), JSON.stringify({ turn_id: 't2', new_actions: [{ id: 'r2', type: 'code_review', title: 'review PR 8', owner: 'agent' }] }));
    const next = await ratchet(dir, ['--json', 'turn', 'commit', 't2.json']);
    expect(next.json()).toMatchObject({ created: [{ id: 'r2', type: 'code_review', owner: 'agent' }] });
    // A commit for a turn that was never started loads the registry as it is now.
    writeFileSync(join(dir, 't3.json'), JSON.stringify({ turn_id: 't3', new_actions: [{ id: 'r3', type: 'code_review', title: 'review PR 9', owner: 'agent' }] }));
    expect((await ratchet(dir, ['--json', 'turn', 'commit', 't3.json'])).json()).toMatchObject({ created: [{ id: 'r3', type: 'code_review' }] });
  });

  test('the agent cannot pin a registry of its own at turn start', async () => {
    const dir = project();
    writeFileSync(join(dir, 'mine.json'), readFileSync(new URL('../../../protocols/action_types.json', import.meta.url)));
    const r = await ratchet(dir, ['turn', 'start', 't1', '--registry', 'mine.json'], { RATCHET_ACTOR: 'agent' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('--registry is refused');
  });

  test('nor pin a project registry edited since the user approved it; the user may', async () => {
    const dir = project();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'protocols'));
    const registry = readFileSync(new URL('../../../protocols/action_types.json', import.meta.url), 'utf8');
    writeFileSync(join(dir, 'protocols/action_types.json'), registry);
    expect((await ratchet(dir, ['actions', 'add', 'agent_task', 'Ship it', '--as', 'user'])).code).toBe(0);
    writeFileSync(join(dir, 'protocols/action_types.json'), registry.replace('"allowed_owners": [\n        "user"\n      ]', '"allowed_owners": [\n        "agent",\n        "user"\n      ]'));
    const agent = await ratchet(dir, ['turn', 'start', 't1'], { RATCHET_ACTOR: 'agent' });
    expect(agent.code).toBe(1);
    expect(agent.err).toContain('the action-type registry changed since a user last merged or approved it');
    expect(() => readFileSync(join(dir, '.ratchet/traces.jsonl'))).toThrow();
    expect((await ratchet(dir, ['turn', 'start', 't1', '--as', 'user'])).code).toBe(0);
  });

  test('a pinned registry that is gone or was changed is exit 2, naming the file; nothing is committed', async () => {
    const dir = project();
    expect((await ratchet(dir, ['turn', 'start', 't1'])).code).toBe(0);
    const pins = join(dir, '.ratchet/registry-pins');
    const { readdirSync } = await import('node:fs');
    const [pin] = readdirSync(pins).filter((f) => f.endsWith('.json'));
    writeFileSync(join(pins, pin!), readFileSync(join(pins, pin!), 'utf8').replace('"Agent task"', '"Agent chore"'));
    writeFileSync(join(dir, 't1.json'), JSON.stringify({ turn_id: 't1', new_actions: [{ type: 'agent_task', title: 'x' }] }));
    const r = await ratchet(dir, ['turn', 'commit', 't1.json']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`.ratchet/registry-pins/${pin!}`);
    expect((await ratchet(dir, ['--json', 'actions', 'list', '--all'])).json()).toMatchObject({ actions: [] });
  });
});

describe('a merge that would make a type impossible to complete is refused', { timeout: 60_000 }, () => {
  test('a custom completion guard with no handler: exit 1, the registry file untouched, the proposal still approved', async () => {
    const dir = project();
    const r = await mergeCodeReview(dir, { policy_handlers: { completion_guard: 'manager_signoff' } });
    expect(r.code).toBe(1);
    expect(r.err).toContain('completion guard "manager_signoff"');
    expect(r.err).toContain('no handler');
    expect((await ratchet(dir, ['--json', 'proposals', 'show', 'p1'])).json()).toMatchObject({ proposal: { status: 'approved' } });
    expect(() => readFileSync(join(dir, 'protocols/action_types.json'))).toThrow();
    // Amended to a guard that exists, it merges.
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ policy_handlers: { completion_guard: 'user_acknowledgment' } }));
    expect((await ratchet(dir, ['proposals', 'amend', 'p1', 'a.json', '--as', 'user'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'review', 'p1', 'approve', '--as', 'user'])).code).toBe(0);
    expect((await ratchet(dir, ['proposals', 'merge', 'p1', '--as', 'user'])).code).toBe(0);
  });
});

describe('turn assess', { timeout: 60_000 }, () => {
  test('--owner agent prints only the agent\'s list', async () => {
    const dir = project();
    await ratchet(dir, ['actions', 'add', 'agent_task', 'Write the migration']);
    await ratchet(dir, ['actions', 'add', 'user_task', 'Approve the copy']);
    const r = await ratchet(dir, ['turn', 'assess', '--owner', 'agent']);
    expect(r.out).toContain('Next for the agent:');
    expect(r.out).toContain('Write the migration');
    expect(r.out).not.toContain('Next for the user:');
    expect(r.out).not.toContain('Approve the copy');
    const json = (await ratchet(dir, ['--json', 'turn', 'assess', '--owner', 'user'])).json() as { by_owner: { agent: unknown[]; user: { action: { id: string } }[] } };
    expect(json.by_owner.agent).toEqual([]);
    expect(json.by_owner.user.map((a) => a.action.id)).toEqual(['a2']);
  });

  test('--query ranks the actions that share words with it first', async () => {
    const dir = project();
    await ratchet(dir, ['actions', 'add', 'agent_task', 'Tidy the changelog', '--priority', '3']);
    await ratchet(dir, ['actions', 'add', 'agent_task', 'Profile the signup page', '--priority', '2']);
    const plain = (await ratchet(dir, ['--json', 'turn', 'assess'])).json() as { actions: { action: { id: string } }[] };
    expect(plain.actions.map((a) => a.action.id)).toEqual(['a1', 'a2']);
    const asked = (await ratchet(dir, ['--json', 'turn', 'assess', '--query', 'why is signup slow?'])).json() as { actions: { action: { id: string } }[]; by_owner: { agent: { action: { id: string } }[] } };
    expect(asked.actions.map((a) => a.action.id)).toEqual(['a2', 'a1']);
    expect(asked.by_owner.agent.map((a) => a.action.id)).toEqual(['a2', 'a1']);
  });
});

describe('actions update', { timeout: 60_000 }, () => {
  test('changes priority, due date and title; --json is the action; the agent cannot change the user\'s', async () => {
    const dir = project();
    await ratchet(dir, ['actions', 'add', 'agent_task', 'Write the migration']);
    await ratchet(dir, ['actions', 'add', 'user_task', 'Approve the copy']);
    const r = await ratchet(dir, ['--json', 'actions', 'update', 'a1', '--priority', '5', '--due', '2030-02-01T09:00:00Z', '--title', 'Write and test the migration']);
    expect(r.code, r.err).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, version: 3, action: { id: 'a1', priority: 5, due_at: '2030-02-01T09:00:00.000Z', title: 'Write and test the migration' } });
    const refused = await ratchet(dir, ['actions', 'update', 'a2', '--priority', '9']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('a2 is owned by the user: the agent cannot change its priority');
    expect((await ratchet(dir, ['actions', 'update', 'a2', '--priority', '9', '--as', 'user'])).code).toBe(0);
    // Nothing to change, or a bad value: exit 2, nothing written.
    expect((await ratchet(dir, ['actions', 'update', 'a1'])).code).toBe(2);
    expect((await ratchet(dir, ['actions', 'update', 'a1', '--due', 'next tuesday'])).code).toBe(2);
    expect((await ratchet(dir, ['actions', 'update', 'a1', '--priority', '-1'])).code).toBe(2);
    expect((await ratchet(dir, ['actions', 'update', 'zz', '--priority', '1'])).code).toBe(2);
  });
});

describe('goals add takes every field of a goal', { timeout: 60_000 }, () => {
  test('horizon, metrics, constraints and status; --id changes only what is given', async () => {
    const dir = project();
    const r = await ratchet(dir, ['--json', 'goals', 'add', 'Grow signups', '--horizon-days', '90', '--horizon-steps', '12', '--metric', 'signups=120', '--metric', 'churn=0.05', '--constraint', 'no paid ads', '--constraint', 'GDPR', '--status', 'proposed']);
    expect(r.code, r.err).toBe(0);
    expect(r.json()).toMatchObject({ goal: { id: 'g1', horizon: { days: 90, steps: 12 }, metrics: { signups: 120, churn: 0.05 }, constraints: ['no paid ads', 'GDPR'], status: 'proposed' } });
    const u = await ratchet(dir, ['--json', 'goals', 'add', '--id', 'g1', '--status', 'active', '--metric', 'signups=150']);
    expect(u.json()).toMatchObject({ goal: { status: 'active', metrics: { signups: 150, churn: 0.05 }, constraints: ['no paid ads', 'GDPR'], horizon: { days: 90, steps: 12 } } });
    for (const bad of [['--metric', 'signups'], ['--metric', 'signups=lots'], ['--horizon-days', '-3'], ['--status', 'done'], ['--metric', '__proto__=1']]) {
      const b = await ratchet(dir, ['goals', 'add', '--id', 'g1', ...bad]);
      expect(b.code, bad.join(' ')).toBe(2);
    }
  });
});
