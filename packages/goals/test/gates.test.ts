/** Issue 15: the shortcuts an agent would take through the goals library are refused. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { amendProposal, completeAction, confirmAction, createAction, defaultRegistryDocument, loadRegistry, applyProposal, retypeAction, reviewProposal, submitProposal, upsertGoal } from '../src/index.js';
import { AGENT, USER, inMemory, registry, tempStore } from './support.js';

describe('goals revert and the owner rules', () => {
  test('the agent cannot revert past the user\'s confirmation or review; the user can; nothing is written on refusal', async () => {
    const { store } = tempStore();
    const { result: a } = await store.mutate({ actor: AGENT, op: 'action.create' }, (tx) => createAction(tx, registry, { type: 'decision', owner: 'agent', title: 'pick a database' }).action);
    const before = (await store.read()).version;
    await store.mutate({ actor: USER, op: 'action.confirm' }, (tx) => confirmAction(tx, a.id));
    await store.mutate({ actor: AGENT, op: 'goal.upsert' }, (tx) => upsertGoal(tx, { title: 'later' }));
    const snapshot = readFileSync(store.path, 'utf8');
    await expect(store.revert(before, { actor: AGENT })).rejects.toMatchObject({ code: 'owner-violation' });
    expect(readFileSync(store.path, 'utf8')).toBe(snapshot);
    // Reverting only the agent's own later change is fine.
    await expect(store.revert(before + 1, { actor: AGENT })).resolves.toMatchObject({ result: { reverted_to: before + 1 } });
    // The user may undo their own confirmation.
    await store.revert(before, { actor: USER });
    expect((await store.read()).actions[0]!.confirmed_at).toBeUndefined();

    const { result: p } = await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) =>
      submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', allowed_owners: ['agent'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, rationale: 'frequent' }),
    );
    const submitted = (await store.read()).version;
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, p.id, 'approve', 'ok'));
    await expect(store.revert(submitted, { actor: AGENT })).rejects.toMatchObject({ code: 'owner-violation' });
  });

  test('nobody reverts across a merge: the registry file would keep the type beside an unmerged proposal', async () => {
    const { store, dir } = tempStore();
    const registryPath = join(dir, 'action_types.json');
    writeFileSync(registryPath, `${JSON.stringify(defaultRegistryDocument(), null, 2)}\n`);
    const { result: p } = await store.mutate({ actor: AGENT, op: 'proposal.submit' }, (tx) =>
      submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', allowed_owners: ['agent'], allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] }, rationale: 'frequent' }),
    );
    await store.mutate({ actor: USER, op: 'proposal.review' }, (tx) => reviewProposal(tx, p.id, 'approve', 'ok'));
    const approved = (await store.read()).version;
    await store.mergeProposal(p.id, registryPath, { actor: USER });
    for (const actor of [AGENT, USER]) await expect(store.revert(approved, { actor })).rejects.toMatchObject({ code: 'proposal-state' });
    expect((await store.read()).proposals[0]!.status).toBe('merged');
  });
});

describe('proposals: guards and empty modifications', () => {
  test('amending an auto-filed proposal to agent owners drops the user-only guard, so the agent can complete its own actions', () => {
    const { tx, state } = inMemory(AGENT);
    createAction(tx, registry, { type: 'code_review', title: 'review the PR' });
    const filed = state.proposals[0]!;
    expect(filed.policy_handlers?.completion_guard).toBe('user_acknowledgment');
    const amended = amendProposal(tx, filed.id, { allowed_owners: ['agent'], suggested_policies: { requires_confirmation: false, auto_complete: true }, allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] } });
    expect(amended.policy_handlers?.completion_guard).toBeUndefined();
    // Merged, the type really is completable by its owner.
    const merged = loadRegistry(applyProposal(defaultRegistryDocument(), amended));
    const { tx: tx2 } = inMemory(AGENT);
    const { action } = createAction(tx2, merged, { type: 'code_review', title: 'review' });
    expect(completeAction(tx2, merged, action.id).status).toBe('done');
    // Saying so explicitly is refused, with the place.
    expect(() => amendProposal(tx, filed.id, { policy_handlers: { completion_guard: 'user_acknowledgment' } })).toThrow(/policy_handlers\/completion_guard/);
  });
  test('a modify proposal that changes nothing is refused', () => {
    const { tx } = inMemory(AGENT);
    expect(() => submitProposal(tx, { proposal_type: 'modify', type_id: 'agent_task', rationale: 'why not' })).toThrow(/changes nothing/);
    expect(submitProposal(tx, { proposal_type: 'modify', type_id: 'agent_task', display_name: 'Agent job', rationale: 'clearer' }).status).toBe('open');
  });
});

describe('re-typing a coerced action after its type merged', () => {
  const amendment = { allowed_owners: ['agent' as const], suggested_policies: { requires_confirmation: false, auto_complete: true }, allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] } };
  test('before the merge it is refused; after, the action takes the type; an agent re-type keeps the confirmation it required', () => {
    const { tx, state } = inMemory(AGENT);
    const { action } = createAction(tx, registry, { type: 'code_review', title: 'review the PR' });
    expect(action).toMatchObject({ type: 'user_task', owner: 'user', requires_confirmation: true });
    // The shortcut: claim the type before the user merged it.
    expect(() => retypeAction(tx, registry, action.id)).toThrow(/merge its proposal first/);
    const merged = loadRegistry(applyProposal(defaultRegistryDocument(), amendProposal(tx, state.proposals[0]!.id, amendment)));
    const a = retypeAction(tx, merged, action.id);
    expect(a).toMatchObject({ type: 'code_review', owner: 'agent', status: 'open', requires_confirmation: true, metadata: { retyped_from: 'user_task' } });
    expect(a.metadata.requested_type).toBeUndefined();
    // An action that was never coerced keeps its type.
    const { action: plain } = createAction(tx, merged, { type: 'agent_task', title: 'x' });
    expect(() => retypeAction(tx, merged, plain.id)).toThrow(/never changes/);
  });
  test('the user\'s re-type takes the type\'s own confirmation policy', () => {
    const { tx, state } = inMemory(USER);
    const { action } = createAction(tx, registry, { type: 'code_review', title: 'review' });
    const merged = loadRegistry(applyProposal(defaultRegistryDocument(), amendProposal(tx, state.proposals[0]!.id, amendment)));
    expect(retypeAction(tx, merged, action.id).requires_confirmation).toBe(false);
  });
});
