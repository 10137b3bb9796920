import { describe, expect, test } from 'vitest';
import {
  ConfirmationRequiredError,
  InputError,
  amendProposal,
  applyProposal,
  OwnerError,
  TransitionError,
  completeAction,
  confirmAction,
  createAction,
  deprecateActionType,
  defaultRegistryDocument,
  escalateDue,
  loadRegistry,
  moveAction,
  reviewProposal,
  submitProposal,
  updateAction,
  updateProgress,
  upsertGoal,
  upsertQuestion,
  upsertStory,
  Tx,
} from '../src/index.js';
import { AGENT, T0, USER, inMemory, registry, tempStore } from './support.js';

const as = (tx: Tx, actor: typeof AGENT): Tx => new Tx(tx.state, tx.now, actor);

describe('owner semantics', () => {
  test('the agent cannot complete a user-owned item; the user can', () => {
    const { tx } = inMemory(AGENT);
    const { action } = createAction(tx, registry, { type: 'user_task', title: 'sign the contract' });
    expect(action).toMatchObject({ owner: 'user', status: 'open', requires_confirmation: true });
    moveAction(tx, registry, action.id, 'awaiting_confirmation');
    expect(() => moveAction(tx, registry, action.id, 'done')).toThrow(OwnerError);
    expect(() => completeAction(tx, registry, action.id)).toThrow(OwnerError);
    expect(() => moveAction(tx, registry, action.id, 'cancelled')).toThrow(/cannot cancel/);
    expect(tx.get('action', action.id).status).toBe('awaiting_confirmation');
    const done = moveAction(as(tx, USER), registry, action.id, 'done');
    expect(done).toMatchObject({ status: 'done', confirmed_by: 'alice' });
  });

  test('requires_confirmation holds until the user confirms; the agent cannot confirm', () => {
    const { tx } = inMemory(AGENT);
    const { action } = createAction(tx, registry, { type: 'decision', owner: 'agent', title: 'pick a database' });
    expect(action.requires_confirmation).toBe(true);
    expect(() => completeAction(tx, registry, action.id)).toThrow(ConfirmationRequiredError);
    expect(() => confirmAction(tx, action.id)).toThrow(OwnerError);
    confirmAction(as(tx, USER), action.id);
    tx.edit('action', action.id).metadata.choice = 'postgres';
    expect(completeAction(tx, registry, action.id)).toMatchObject({ status: 'decided', confirmed_by: 'alice' });
  });

  test("the agent cannot waive a type's confirmation policy; the user can, and anyone can add one", () => {
    const { tx } = inMemory(AGENT);
    expect(() => createAction(tx, registry, { type: 'decision', owner: 'agent', title: 'pick', requires_confirmation: false })).toThrow(OwnerError);
    expect(tx.state.actions).toEqual([]);
    expect(createAction(as(tx, USER), registry, { type: 'decision', owner: 'agent', title: 'pick', requires_confirmation: false }).action.requires_confirmation).toBe(false);
    expect(createAction(tx, registry, { type: 'agent_task', title: 'deploy', requires_confirmation: true }).action.requires_confirmation).toBe(true);
  });

  test('a type refuses owners it does not allow; auto_complete false keeps the agent from completing', () => {
    const { tx } = inMemory(AGENT);
    expect(() => createAction(tx, registry, { type: 'agent_task', owner: 'user', title: 'x' })).toThrow(/cannot be owned by the user/);
    const doc = defaultRegistryDocument();
    doc.action_types[0] = { ...doc.action_types[0]!, default_policies: { auto_complete: false } };
    const strict = loadRegistry(doc);
    const { action } = createAction(tx, strict, { type: 'agent_task', title: 'x' });
    expect(() => completeAction(tx, strict, action.id)).toThrow(/auto-completion/);
    expect(completeAction(as(tx, USER), strict, action.id).status).toBe('done');
  });
});

describe('statuses through the type machine', () => {
  test('an illegal transition names what is allowed; completion walks the shortest legal path', () => {
    const { tx } = inMemory(AGENT);
    const { action } = createAction(tx, registry, { type: 'background_job', title: 'reindex' });
    expect(action.status).toBe('queued');
    try {
      moveAction(tx, registry, action.id, 'succeeded');
      throw new Error('expected a TransitionError');
    } catch (err) {
      expect(err).toBeInstanceOf(TransitionError);
      expect((err as TransitionError).allowed).toEqual(['running', 'cancelled']);
    }
    expect(completeAction(tx, registry, action.id).status).toBe('succeeded');
    expect(() => moveAction(tx, registry, action.id, 'running')).toThrow(/terminal status/);
  });

  test('the built-in guards: choice_recorded (decision) and user_acknowledgment (user_task); a caller handler wins', () => {
    const { tx } = inMemory(USER);
    const { action } = createAction(tx, registry, { type: 'decision', title: 'choose' });
    expect(() => completeAction(tx, registry, action.id)).toThrow(/completion guard "choice_recorded" refused: no choice recorded/);
    expect(tx.get('action', action.id).status).toBe('open');
    expect(completeAction(tx, registry, action.id, { handlers: { choice_recorded: () => undefined } }).status).toBe('decided');
    // user_acknowledgment: even where a registry lets the agent own a user_task, only the user completes it.
    const doc = defaultRegistryDocument();
    const userTask = doc.action_types.find((t) => t.id === 'user_task')!;
    Object.assign(userTask, { allowed_owners: ['user', 'agent'], default_policies: { auto_complete: true } });
    const loose = loadRegistry(doc);
    const agentTx = as(tx, AGENT);
    const mine = createAction(agentTx, loose, { type: 'user_task', owner: 'agent', title: 'ack' }).action;
    moveAction(agentTx, loose, mine.id, 'awaiting_confirmation');
    expect(() => moveAction(agentTx, loose, mine.id, 'done')).toThrow(/user_acknowledgment" refused: only the user's acknowledgment completes it/);
    expect(moveAction(as(agentTx, USER), loose, mine.id, 'done').status).toBe('done');
  });

  test('a guard the registry names but nobody implements refuses (fails closed)', () => {
    const doc = defaultRegistryDocument();
    doc.action_types.find((t) => t.id === 'agent_task')!.policy_handlers = { completion_guard: 'tests_pass' };
    const guarded = loadRegistry(doc);
    const { tx } = inMemory(AGENT);
    const { action } = createAction(tx, guarded, { type: 'agent_task', title: 'x' });
    expect(() => completeAction(tx, guarded, action.id)).toThrow(/completion guard "tests_pass" has no handler/);
    expect(() => completeAction(tx, guarded, action.id, { handlers: { tests_pass: () => 'red' } })).toThrow(/refused: red/);
    expect(completeAction(tx, guarded, action.id, { handlers: { tests_pass: () => undefined } }).status).toBe('done');
    // Cancelling is not completing: no guard.
    const other = createAction(tx, guarded, { type: 'agent_task', title: 'y' }).action;
    expect(moveAction(tx, guarded, other.id, 'cancelled').status).toBe('cancelled');
  });

  test('a completion guard handler can refuse', () => {
    const { tx } = inMemory(USER);
    const { action } = createAction(tx, registry, { type: 'decision', title: 'choose' });
    const handlers = { choice_recorded: (a: { metadata: Record<string, unknown> }) => (a.metadata.choice === undefined ? 'no choice recorded in metadata.choice' : undefined) };
    expect(() => completeAction(tx, registry, action.id, { handlers })).toThrow(/no choice recorded/);
    tx.edit('action', action.id).metadata.choice = 'postgres';
    expect(completeAction(tx, registry, action.id, { handlers }).status).toBe('decided');
  });
});

describe('unknown and deprecated types', () => {
  test('an unknown type is coerced to user_task requiring confirmation, and one proposal is filed', () => {
    const { tx, state } = inMemory(AGENT);
    const first = createAction(tx, registry, { type: 'deploy_window', owner: 'agent', title: 'deploy on Friday', requires_confirmation: false }, 'turn-1');
    expect(first.action).toMatchObject({ type: 'user_task', owner: 'user', requires_confirmation: true, metadata: { requested_type: 'deploy_window' } });
    expect(first.proposal).toMatchObject({ proposal_type: 'add', type_id: 'deploy_window', status: 'open', created_from_turn_id: 'turn-1' });
    const second = createAction(tx, registry, { type: 'deploy_window', title: 'deploy again' });
    expect(second.proposal!.id).toBe(first.proposal!.id);
    expect(state.proposals).toHaveLength(1);
    // It is a user_task now: the agent cannot complete it.
    expect(() => completeAction(tx, registry, first.action.id)).toThrow();
  });

  test("the proposal filed for an unknown type carries user_task's semantics, so it merges as filed", () => {
    const { tx } = inMemory(AGENT);
    const { proposal } = createAction(tx, registry, { type: 'deploy_window', title: 'deploy on Friday' }, 'turn-1');
    const safe = registry.types.get('user_task')!.type;
    expect(proposal).toMatchObject({
      allowed_owners: ['user'],
      suggested_policies: { ...safe.default_policies, requires_confirmation: true },
      allowed_statuses: safe.allowed_statuses,
      allowed_transitions: safe.allowed_transitions,
      policy_handlers: safe.policy_handlers,
    });
    const merged = loadRegistry(applyProposal(defaultRegistryDocument(), proposal!));
    const added = merged.types.get('deploy_window')!;
    expect(added.type).toEqual({ ...safe, id: 'deploy_window', display_name: 'deploy_window', description: undefined, deprecation_status: 'active' });
    // The new type keeps the safeguards the coerced action had: the user owns it, the agent cannot finish it.
    const next = createAction(tx, merged, { type: 'deploy_window', title: 'deploy next Friday' }, 'turn-2');
    expect(next.proposal).toBeUndefined();
    expect(next.action).toMatchObject({ type: 'deploy_window', owner: 'user', requires_confirmation: true });
    moveAction(tx, merged, next.action.id, 'awaiting_confirmation');
    expect(() => moveAction(tx, merged, next.action.id, 'done')).toThrow(OwnerError);
  });

  test('a type id that is not a valid name is filed without one; merging says to amend it', () => {
    const { tx } = inMemory(AGENT);
    const { proposal } = createAction(tx, registry, { type: 'deploy window!', title: 'deploy' });
    expect(proposal!.type_id).toBeUndefined();
    expect(() => applyProposal(defaultRegistryDocument(), proposal!)).toThrow(/names no type_id: amend it/);
    const amended = amendProposal(tx, proposal!.id, { type_id: 'deploy_window' });
    expect(loadRegistry(applyProposal(defaultRegistryDocument(), amended)).types.has('deploy_window')).toBe(true);
  });

  test('a deprecated type refuses new actions but old ones keep working', () => {
    const { tx } = inMemory(AGENT);
    const { action } = createAction(tx, registry, { type: 'research', title: 'read the docs' });
    const deprecated = loadRegistry(deprecateActionType(defaultRegistryDocument(), 'research'));
    expect(() => createAction(tx, deprecated, { type: 'research', title: 'more' })).toThrow(/deprecated/);
    expect(completeAction(tx, deprecated, action.id).status).toBe('done');
  });
});

describe('escalation', () => {
  test('a reminder escalates after its due time (injected clock), once', () => {
    const { tx } = inMemory(AGENT);
    const due = new Date(T0 + 60_000).toISOString();
    const { action } = createAction(tx, registry, { type: 'reminder', title: 'standup', due_at: due });
    const follow = createAction(tx, registry, { type: 'follow_up', title: 'check CI', due_at: due }).action;
    expect(escalateDue(tx, registry, T0 + 59_999)).toEqual([]);
    const escalated = escalateDue(tx, registry, T0 + 60_000);
    expect(escalated.map((a) => a.id)).toEqual([action.id]);
    expect(tx.get('action', action.id)).toMatchObject({ status: 'escalated', escalated_at: tx.now });
    expect(escalateDue(tx, registry, T0 + 120_000)).toEqual([]);
    // follow_up escalates 24 hours after its due time.
    expect(escalateDue(tx, registry, T0 + 60_000 + 24 * 3_600_000).map((a) => a.id)).toEqual([follow.id]);
  });
});

describe('goals, questions and stories', () => {
  test('story updates keep acceptance criteria and add evidence', () => {
    const { tx } = inMemory(AGENT);
    const goal = upsertGoal(tx, { title: 'Launch', priority: 3 });
    const q = upsertQuestion(tx, { text: 'Who are the first users?', goal_id: goal.id });
    const s = upsertStory(tx, { question_id: q.id, narrative: 'Early adopters', acceptance_criteria: ['10 interviews'], evidence_refs: ['notes/1.md'] });
    upsertStory(tx, { id: s.id, narrative: 'Early adopters in fintech', acceptance_criteria: ['a pilot signed'], evidence_refs: ['notes/2.md', 'notes/1.md'] });
    upsertStory(tx, { question_id: q.id, evidence_refs: ['notes/3.md'] });
    expect(tx.get('story', s.id)).toMatchObject({
      narrative: 'Early adopters in fintech',
      acceptance_criteria: ['10 interviews', 'a pilot signed'],
      evidence_refs: ['notes/1.md', 'notes/2.md', 'notes/3.md'],
    });
    expect(() => upsertStory(tx, { id: s.id, question_id: 'q-other' })).toThrow(/belongs to question/);
  });

  test('progress: absolute and delta, clamped, evidence appended, achieved at 1; parent cycles refused', () => {
    const { tx } = inMemory(AGENT);
    const goal = upsertGoal(tx, { title: 'Ship', priority: 1 });
    expect(updateProgress(tx, { goal_id: goal.id, delta: 0.5, evidence_refs: ['ci#1'] }).progress).toBe(0.5);
    expect(() => updateProgress(tx, { goal_id: goal.id, progress: 1.5 })).toThrow(/between 0 and 1/);
    expect(updateProgress(tx, { goal_id: goal.id, delta: 0.9 })).toMatchObject({ progress: 1, status: 'achieved', evidence_refs: ['ci#1'] });
    const child = upsertGoal(tx, { title: 'Child', parent_goal_id: goal.id });
    expect(() => upsertGoal(tx, { id: goal.id, title: 'Ship', parent_goal_id: child.id })).toThrow(/cycle/);
  });

  test('hostile ids are refused', () => {
    const { tx } = inMemory(AGENT);
    expect(() => upsertGoal(tx, { id: '__proto__', title: 'x' })).toThrow(/invalid goal id/);
    expect(() => upsertGoal(tx, { id: '../../etc/passwd', title: 'x' })).toThrow(/invalid goal id/);
    expect(() => createAction(tx, registry, { id: 'a\nb', type: 'agent_task', title: 'x' })).toThrow(/invalid action id/);
    const hostile = JSON.parse('{"nested": {"__proto__": {"polluted": true}}}') as Record<string, unknown>;
    expect(() => createAction(tx, registry, { type: 'agent_task', title: 'x', metadata: hostile })).toThrow(/refusing the key "__proto__" in metadata.nested/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('proposals', () => {
  test('submit, review (approve or reject with comments); a rejected proposal is final', () => {
    const { tx } = inMemory(AGENT);
    const p = submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', rationale: 'reviews are frequent', allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] } });
    const reviewer = as(tx, USER);
    expect(reviewProposal(reviewer, p.id, 'reject', 'not yet')).toMatchObject({ status: 'rejected', reviewers: [{ reviewer: 'alice', decision: 'reject', comments: 'not yet' }] });
    expect(() => reviewProposal(reviewer, p.id, 'approve', 'changed my mind')).toThrow(/already rejected/);
    expect(() => submitProposal(tx, { proposal_type: 'modify', rationale: 'x' })).toThrow(/needs a type_id/);
  });

  test('submit: a complete add proposal must describe a valid action type (every problem, pointing into the proposal)', () => {
    const { tx, state } = inMemory(AGENT);
    let err: unknown;
    try {
      submitProposal(tx, { proposal_type: 'add', type_id: 'x', rationale: 'r', allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['nowhere'], done: ['open'] } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).issues.map((i) => i.pointer)).toEqual(['/allowed_transitions/open/0', '/allowed_transitions']);
    expect(state.proposals).toEqual([]);
  });

  test('amend: fields replace, an approved proposal goes back to review, rejected and merged ones are final', () => {
    const { tx } = inMemory(AGENT);
    const p = submitProposal(tx, { proposal_type: 'add', type_id: 'code_review', rationale: 'frequent', allowed_statuses: ['open', 'done'], allowed_transitions: { open: ['done'] } });
    reviewProposal(as(tx, USER), p.id, 'approve', 'ok');
    const amended = amendProposal(tx, p.id, { allowed_owners: ['agent'], allowed_statuses: ['requested', 'reviewed'], allowed_transitions: { requested: ['reviewed'] }, risks: ['slow'] });
    expect(amended).toMatchObject({ status: 'open', allowed_owners: ['agent'], allowed_statuses: ['requested', 'reviewed'], allowed_transitions: { requested: ['reviewed'] }, rationale: 'frequent', risks: ['slow'] });
    expect(amended.reviewers).toHaveLength(1);
    // Invalid amendments change nothing: a transition to an unknown status, an unknown field, nothing to change.
    expect(() => amendProposal(tx, p.id, { allowed_transitions: { requested: ['gone'] } })).toThrow(/transition to "gone".*at \/allowed_transitions\/requested\/0/);
    expect(() => amendProposal(tx, p.id, { bogus: 1 } as never)).toThrow(/unknown property "bogus"/);
    expect(() => amendProposal(tx, p.id, {})).toThrow(/changes nothing/);
    expect(() => amendProposal(tx, p.id, { type_id: '__proto__' })).toThrow();
    expect(tx.get('proposal', p.id)).toMatchObject({ allowed_transitions: { requested: ['reviewed'] } });
    reviewProposal(as(tx, USER), p.id, 'reject', 'no');
    expect(() => amendProposal(tx, p.id, { rationale: 'please' })).toThrow(/already rejected/);
  });

  test('the agent submits proposals but cannot review them', () => {
    const { tx } = inMemory(AGENT);
    const p = submitProposal(tx, { proposal_type: 'deprecate', type_id: 'research', rationale: 'use agent_task' });
    expect(() => reviewProposal(tx, p.id, 'approve', 'self-approved')).toThrow(OwnerError);
    expect(tx.get('proposal', p.id)).toMatchObject({ status: 'open', reviewers: [] });
    expect(reviewProposal(as(tx, USER), p.id, 'approve', 'ok').status).toBe('approved');
  });
});

test('updateAction changes descriptive fields only, validated', () => {
  const { tx } = inMemory(AGENT);
  const { action } = createAction(tx, registry, { type: 'agent_task', title: 'x', metadata: { a: 1 } });
  const updated = updateAction(tx, action.id, { priority: 7, effort: 2, due_at: '2030-02-01T00:00:00+01:00', metadata: { b: 2 }, evidence_refs: ['log.txt'] });
  expect(updated).toMatchObject({ priority: 7, effort: 2, due_at: '2030-01-31T23:00:00.000Z', metadata: { a: 1, b: 2 }, evidence_refs: ['log.txt'], status: 'open', owner: 'agent' });
  expect(() => updateAction(tx, action.id, { effort: 0 })).toThrow(/positive/);
  expect(() => updateAction(tx, action.id, { priority: -1 })).toThrow(/negative/);
  expect(() => updateAction(tx, action.id, { goal_id: 'nope' })).toThrow(/no goal "nope"/);
});

test('timestamps come from the transaction clock only', () => {
  const { tx } = inMemory(AGENT, undefined, T0 + 5);
  const { action } = createAction(tx, registry, { type: 'agent_task', title: 'x' });
  expect(action.created_at).toBe(new Date(T0 + 5).toISOString());
});

test('a change the state schema refuses is an input error naming the entity and the field, before anything is written', async () => {
  const { store } = tempStore();
  await expect(store.mutate({ actor: AGENT, op: 'x' }, (tx) => upsertGoal(tx, { title: 'x', priority: -1 }))).rejects.toThrow('goal "g1": priority must be >= 0');
  await expect(store.mutate({ actor: AGENT, op: 'x' }, (tx) => createAction(tx, registry, { type: 'agent_task', title: 'x'.repeat(1001) }))).rejects.toMatchObject({
    code: 'invalid-input',
    message: 'action "a1": title must NOT have more than 1000 characters',
  });
  expect((await store.read()).version).toBe(0);
});
