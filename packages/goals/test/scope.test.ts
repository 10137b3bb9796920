import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  ScopeError,
  addObservation,
  assess,
  canAccess,
  commitDigest,
  completeAction,
  createAction,
  expireObservations,
  scopedView,
  shareItem,
  updateProgress,
  upsertGoal,
  type Actor,
  type GoalsState,
} from '../src/index.js';
import { T0, USER, registry, tempStore } from './support.js';

const A: Actor = { role: 'agent', agent_id: 'a', org_id: 'acme' };
const B: Actor = { role: 'agent', agent_id: 'b', org_id: 'acme' };
const C: Actor = { role: 'agent', agent_id: 'c', org_id: 'globex' };
const NOBODY: Actor = { role: 'agent' };

/** Two agents on one state file: each adds a goal and an action, one unscoped goal from before scopes. */
async function twoAgents() {
  const t = tempStore();
  await t.store.mutate({ actor: NOBODY, op: 'legacy' }, (tx) => upsertGoal(tx, { id: 'old', title: 'from before scopes' }));
  await t.store.mutate({ actor: A, op: 'plan' }, (tx) => {
    upsertGoal(tx, { id: 'ga', title: 'a goal of a' });
    createAction(tx, registry, { id: 'xa', type: 'agent_task', title: 'a task of a', goal_id: 'ga' });
  });
  await t.store.mutate({ actor: B, op: 'plan' }, (tx) => {
    upsertGoal(tx, { id: 'gb', title: 'a goal of b' });
    createAction(tx, registry, { id: 'xb', type: 'agent_task', title: 'a task of b', goal_id: 'gb' });
  });
  return t;
}

describe('access scopes', () => {
  test('new items are stamped with the acting agent, and each agent sees only its own plus unscoped items', async () => {
    const { store } = await twoAgents();
    const state = await store.read();
    expect(state.goals.find((g) => g.id === 'ga')).toMatchObject({ agent_id: 'a', org_id: 'acme' });
    expect(state.goals.find((g) => g.id === 'old')!.agent_id).toBeUndefined();
    expect(state.audit[1]).toMatchObject({ agent_id: 'a', org_id: 'acme' });
    const seen = (actor: Actor): string[] => scopedView(state, actor).goals.map((g) => g.id);
    expect(seen(A)).toEqual(['old', 'ga']);
    expect(seen(B)).toEqual(['old', 'gb']);
    expect(seen(C)).toEqual(['old']);
    // An agent without --agent is not "everyone": it sees only what is unscoped.
    expect(seen(NOBODY)).toEqual(['old']);
    // The user without a scope is the project's owner and sees all, as before scopes.
    expect(seen(USER)).toEqual(['old', 'ga', 'gb']);
    // assess reads the scoped view: b's action is not in a's turn.
    const turn = assess(scopedView(state, A), registry, { now: T0 });
    expect(turn.actions.map((x) => x.action.id)).toEqual(['xa']);
    // History: a's view of b's mutation keeps the version but not b's changes.
    const v3 = scopedView(state, A).audit[2]!;
    expect(v3.version).toBe(3);
    expect(v3.changes).toEqual([]);
  });

  test('a change to another agent\'s item is refused, naming its scope, and nothing is written', async () => {
    const { store } = await twoAgents();
    const before = readFileSync(store.path, 'utf8');
    const refused = await store.mutate({ actor: A, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'gb', delta: 0.5 })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ScopeError);
    expect((refused as ScopeError).code).toBe('scope-violation');
    expect((refused as ScopeError).message).toContain('goal gb belongs to agent "b" in org "acme"; agent "a" in org "acme" has no write access');
    expect((refused as ScopeError).message).toContain('ratchet goals share goal gb --agent-grant a --access write');
    await expect(store.mutate({ actor: A, op: 'complete' }, (tx) => completeAction(tx, registry, 'xb'))).rejects.toThrow(ScopeError);
    // Upserting by the id of b's goal is an edit of b's goal, not a way round.
    await expect(store.mutate({ actor: A, op: 'upsert' }, (tx) => upsertGoal(tx, { id: 'gb', title: 'mine now' }))).rejects.toThrow(/goal gb belongs to agent "b"/);
    // No --agent: refused too, and the message says why.
    await expect(store.mutate({ actor: NOBODY, op: 'complete' }, (tx) => completeAction(tx, registry, 'xa'))).rejects.toThrow(/the agent without an agent id \(--agent \/ RATCHET_AGENT not set\) has no write access/);
    expect(readFileSync(store.path, 'utf8')).toBe(before);
    // The unscoped item stays changeable by all.
    await store.mutate({ actor: C, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'old', delta: 0.25 }));
  });

  test('the shortcuts: naming another agent in a field, attaching to its goal, re-scoping, reverting its work', async () => {
    const { store } = await twoAgents();
    const before = readFileSync(store.path, 'utf8');
    // upsertGoal takes no scope field: one slipped in is not copied, the goal is a's.
    const slipped = await store.mutate({ actor: A, op: 'spoof' }, (tx) => upsertGoal(tx, { id: 'gs', title: 'for b', agent_id: 'b' } as never));
    expect(slipped.result).toMatchObject({ agent_id: 'a', org_id: 'acme' });
    await store.revert(slipped.version - 1, { actor: A });
    const settled = readFileSync(store.path, 'utf8');
    // A library caller writing the entity itself, naming another agent: refused when the mutation finishes.
    const now = new Date(T0).toISOString();
    const forged = { id: 'gf', title: 'for b', priority: 0, status: 'active' as const, progress: 0, metrics: {}, constraints: [], lineage_ids: [], evidence_refs: [], created_at: now, updated_at: now, version: 0, agent_id: 'b', org_id: 'acme' };
    await expect(store.mutate({ actor: A, op: 'forge' }, (tx) => tx.create('goal', forged))).rejects.toThrow(/goal gf would belong to agent "b" in org "acme", but it is created by agent "a" in org "acme"/);
    // Attaching a new action to b's goal.
    await expect(store.mutate({ actor: A, op: 'attach' }, (tx) => createAction(tx, registry, { type: 'agent_task', title: 'x', goal_id: 'gb' }))).rejects.toThrow(/goal gb belongs to agent "b".*no read access/);
    // Moving its own item into b's scope.
    await expect(
      store.mutate({ actor: A, op: 'rescope' }, (tx) => {
        tx.edit('goal', 'ga').agent_id = 'b';
      }),
    ).rejects.toThrow(/its agent_id and org_id do not change/);
    // A revert that would undo b's mutation.
    await expect(store.revert(2, { actor: A })).rejects.toThrow(/(goal gb|action xb) belongs to agent "b"/);
    expect(readFileSync(store.path, 'utf8')).toBe(settled);
    expect(before).not.toBe(settled);
    // b itself may revert its own mutation.
    const fresh = (await twoAgents()).store;
    const r = await fresh.revert(2, { actor: B });
    expect(r.entry?.changes.map((c) => c.id).sort()).toEqual(['gb', 'xb']);
  });

  test('sharing by ACL: read grants visibility, write grants changes but never re-sharing; org-wide grants; withdrawal', async () => {
    const { store } = await twoAgents();
    // Only b shares b's goal.
    await expect(store.mutate({ actor: A, op: 'share' }, (tx) => shareItem(tx, 'goal', 'gb', { agent_id: 'a', access: 'write' }))).rejects.toThrow(/has no write access/);
    await store.mutate({ actor: B, op: 'share' }, (tx) => shareItem(tx, 'goal', 'gb', { agent_id: 'a', access: 'read' }));
    let state = await store.read();
    expect(state.goals.find((g) => g.id === 'gb')!.acl).toEqual([{ agent_id: 'a', access: 'read' }]);
    expect(scopedView(state, A).goals.map((g) => g.id)).toEqual(['old', 'ga', 'gb']);
    // Read is not write.
    await expect(store.mutate({ actor: A, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'gb', delta: 0.5 }))).rejects.toThrow(/no write access/);
    await store.mutate({ actor: B, op: 'share' }, (tx) => shareItem(tx, 'goal', 'gb', { agent_id: 'a', access: 'write' }));
    await store.mutate({ actor: A, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'gb', delta: 0.5 }));
    // A write grant is not a grant to share further.
    await expect(store.mutate({ actor: A, op: 'share' }, (tx) => shareItem(tx, 'goal', 'gb', { agent_id: 'c', access: 'read' }))).rejects.toThrow(/cannot change its scope or ACL/);
    // An org-wide grant reaches every agent of the org, and no other.
    await store.mutate({ actor: A, op: 'share' }, (tx) => shareItem(tx, 'action', 'xa', { org_id: 'globex', access: 'read' }));
    state = await store.read();
    expect(canAccess(state.actions.find((x) => x.id === 'xa')!, C, 'read')).toBe(true);
    expect(canAccess(state.actions.find((x) => x.id === 'xa')!, C, 'write')).toBe(false);
    expect(canAccess(state.actions.find((x) => x.id === 'xa')!, { role: 'agent', agent_id: 'c', org_id: 'initech' }, 'read')).toBe(false);
    // Withdraw.
    await store.mutate({ actor: B, op: 'unshare' }, (tx) => shareItem(tx, 'goal', 'gb', { agent_id: 'a', access: 'none' }));
    expect(scopedView(await store.read(), A).goals.map((g) => g.id)).toEqual(['old', 'ga']);
    // Nothing to share on an unscoped item; an entry must name someone.
    await expect(store.mutate({ actor: A, op: 'share' }, (tx) => shareItem(tx, 'goal', 'old', { agent_id: 'b', access: 'read' }))).rejects.toThrow(/has no scope/);
    await expect(store.mutate({ actor: A, op: 'share' }, (tx) => shareItem(tx, 'goal', 'ga', { access: 'read' }))).rejects.toThrow(/name the agent or the org/);
  });

  test('an org-only scope: every agent of the org, no agent of another', async () => {
    const { store } = tempStore();
    const orgOnly: Actor = { role: 'agent', org_id: 'acme' };
    await store.mutate({ actor: orgOnly, op: 'plan' }, (tx) => upsertGoal(tx, { id: 'shared', title: 'the org goal' }));
    await store.mutate({ actor: B, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'shared', delta: 0.5 }));
    await expect(store.mutate({ actor: C, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'shared', delta: 0.5 }))).rejects.toThrow(/goal shared belongs to org "acme"; agent "c" in org "globex" has no write access/);
  });

  test("sweeps skip other agents' items: a's commit escalates and expires only what a may change", async () => {
    const { store, clock } = tempStore();
    await store.mutate({ actor: A, op: 'a' }, (tx) => {
      createAction(tx, registry, { id: 'ra', type: 'reminder', title: 'a', due_at: new Date(T0 + 1000).toISOString() });
      addObservation(tx, { id: 'oa', content: 'seen by a', source: 'tool', ttl_ms: 1000 });
    });
    await store.mutate({ actor: B, op: 'b' }, (tx) => {
      createAction(tx, registry, { id: 'rb', type: 'reminder', title: 'b', due_at: new Date(T0 + 1000).toISOString() });
      addObservation(tx, { id: 'ob', content: 'seen by b', source: 'tool', ttl_ms: 1000 });
    });
    clock.now = T0 + 10 * 24 * 3600_000;
    const commit = { turn_id: 't-a' };
    expect(commitDigest(commit)).toMatch(/^[0-9a-f]{64}$/);
    const r = await store.commitTurn(registry, commit, { actor: A });
    expect(r.escalated.map((x) => x.id)).toEqual(['ra']);
    await store.mutate({ actor: A, op: 'expire' }, (tx) => expireObservations(tx));
    const state = await store.read();
    expect(state.observations!.map((o) => [o.id, o.status])).toEqual([['oa', 'archived'], ['ob', 'active']]);
  });

  test('a state file from before scopes loads and works unchanged: unscoped items are visible to all', async () => {
    const { store } = tempStore();
    await store.mutate({ actor: { role: 'agent' }, op: 'old' }, (tx) => upsertGoal(tx, { id: 'g', title: 'old goal' }));
    // The file as an older version wrote it: no scope fields anywhere.
    const text = readFileSync(store.path, 'utf8');
    expect(text).not.toContain('agent_id');
    writeFileSync(store.path, text);
    const state: GoalsState = await store.read();
    for (const actor of [A, C, NOBODY, USER]) expect(scopedView(state, actor).goals.map((g) => g.id)).toEqual(['g']);
    await store.mutate({ actor: A, op: 'progress' }, (tx) => updateProgress(tx, { goal_id: 'g', delta: 0.5 }));
    expect((await store.read()).goals[0]).toMatchObject({ progress: 0.5 });
    expect((await store.read()).goals[0]!.agent_id).toBeUndefined();
  });

  test('a hand-edited scope that is malformed is refused with its place, like any state field', async () => {
    const { store } = await twoAgents();
    const doc = JSON.parse(readFileSync(store.path, 'utf8')) as { goals: { acl?: unknown }[] };
    doc.goals[1]!.acl = [{ agent_id: 'a', access: 'admin' }];
    writeFileSync(store.path, JSON.stringify(doc));
    await expect(store.read()).rejects.toThrow(/goals\/1\/acl\/0\/access/);
  });
});
