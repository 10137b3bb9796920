/**
 * The operations of the seed's FrontalCortex interface, over a transaction (Tx). Pure with respect
 * to I/O: persistence wraps them (goals-file.ts). Every refusal is a typed error and, because the
 * whole mutation runs inside one locked update, a refusal writes nothing.
 */
import { shortestPath } from '@ratchet/fsm-core';
import { parseDuration } from './duration.js';
import { ConfirmationRequiredError, InputError, OwnerError, TransitionError } from './errors.js';
import { canTransition, nextStatuses, type CompiledActionType, type Registry } from './registry.js';
import { checkId, type Tx } from './tx.js';
import { proposedTypeIssues } from './proposals.js';
import { amendmentIssues, proposalIssues } from './validate.js';
import type { z } from 'zod';
import type { ActionInputSchema, GoalInputSchema, ProgressDeltaSchema, ProposalAmendmentSchema, ProposalInputSchema, QuestionInputSchema, StoryUpdateSchema } from './schema.js';
import type { Actor, Goal, PendingAction, Question, RegistryProposal, Story } from './types.js';

/** Terminal statuses that abandon rather than complete an action. */
export const CANCEL_STATUSES: ReadonlySet<string> = new Set(['cancelled', 'dismissed']);
/** The type unknown types are coerced to, with requires_confirmation set. */
export const SAFE_DEFAULT_TYPE = 'user_task';

/** Named policy handlers (the registry's `policy_handlers`): a completion guard returns a refusal, or undefined to allow. */
export interface PolicyHandlers {
  [name: string]: ((action: Readonly<PendingAction>, to: string, actor: Readonly<Actor>) => string | undefined) | undefined;
}

/**
 * The completion guards the shipped registry names. A guard the registry names must have a handler
 * (these, or one passed in `handlers`, which wins): a guard nobody implements refuses, since
 * ignoring it would complete what the registry says must be checked first.
 */
export const BUILTIN_POLICY_HANDLERS: Readonly<PolicyHandlers> = Object.freeze({
  /** user_task: completed by the user's own acknowledgment, never on the agent's word. */
  user_acknowledgment: (_action: Readonly<PendingAction>, _to: string, actor: Readonly<Actor>) =>
    actor.role === 'user' ? undefined : "only the user's acknowledgment completes it",
  /** decision: the choice made is recorded in `metadata.choice` before the decision closes. */
  choice_recorded: (action: Readonly<PendingAction>) =>
    typeof action.metadata.choice === 'string' && action.metadata.choice.trim() !== '' ? undefined : 'no choice recorded: set metadata.choice (e.g. `ratchet actions complete <id> --meta choice=...`)',
});

/**
 * A goal to create (title required), or, with the id of an existing goal, only the fields to change
 * (the others keep their values): a turn commit's `goals` item.
 */
export type GoalInput = z.infer<typeof GoalInputSchema>;

export const GOAL_STATUSES: readonly Goal['status'][] = ['proposed', 'active', 'paused', 'achieved', 'abandoned'];

/** Refuse (InputError) goal fields the state's schema would refuse on write, before anything changes. */
function checkGoalFields(input: GoalInput): void {
  if (input.status !== undefined && !GOAL_STATUSES.includes(input.status)) throw new InputError(`goal status must be one of ${GOAL_STATUSES.join(', ')}, got ${JSON.stringify(input.status)}`);
  if (input.horizon !== undefined) {
    const { days, steps, ...rest } = input.horizon;
    if (Object.keys(rest).length > 0) throw new InputError(`goal horizon takes days and steps only, got ${Object.keys(rest).join(', ')}`);
    if (days !== undefined) nonNegative(days, 'horizon days');
    if (steps !== undefined && (!Number.isSafeInteger(steps) || steps < 0)) throw new InputError(`horizon steps must be a whole number >= 0, got ${String(steps)}`);
  }
  if (input.metrics !== undefined) for (const [k, v] of Object.entries(safeRecord(input.metrics, 'metrics'))) finite(v, `metric ${k}`);
  if (input.constraints !== undefined) for (const c of input.constraints) requireText(c, 'a constraint');
}

/** Create a goal, or update the given fields of an existing one (upsert by id). */
export function upsertGoal(tx: Tx, input: GoalInput): Goal {
  checkGoalFields(input);
  if (input.id !== undefined && tx.find('goal', input.id) !== undefined) {
    const goal = tx.edit('goal', input.id);
    for (const key of ['title', 'description', 'priority', 'horizon', 'status', 'progress', 'metrics', 'constraints', 'parent_goal_id', 'lineage_ids'] as const) {
      if (input[key] !== undefined) (goal as unknown as Record<string, unknown>)[key] = structuredClone(input[key]);
    }
    if (input.parent_goal_id !== undefined) checkParent(tx, goal.id, input.parent_goal_id);
    goal.updated_at = tx.now;
    return goal;
  }
  if (input.id !== undefined && (typeof input.title !== 'string' || input.title.trim() === '')) throw new InputError(`no goal "${input.id}" exists to update, and a new goal needs a title`);
  const title = requireText(input.title, 'goal title');
  const id = input.id ?? tx.nextId('goal');
  if (input.parent_goal_id !== undefined) checkParent(tx, id, input.parent_goal_id);
  const goal: Goal = {
    id,
    title,
    priority: input.priority ?? 0,
    status: input.status ?? 'active',
    progress: input.progress ?? 0,
    metrics: structuredClone(input.metrics ?? {}),
    constraints: [...(input.constraints ?? [])],
    lineage_ids: [...(input.lineage_ids ?? [])],
    evidence_refs: [],
    created_at: tx.now,
    updated_at: tx.now,
    version: 0,
  };
  if (input.description !== undefined) goal.description = input.description;
  if (input.horizon !== undefined) goal.horizon = structuredClone(input.horizon);
  if (input.parent_goal_id !== undefined) goal.parent_goal_id = input.parent_goal_id;
  return tx.create('goal', goal);
}

function checkParent(tx: Tx, id: string, parent: string): void {
  tx.get('goal', parent);
  // Walk up: a goal cannot be its own ancestor.
  for (let p: string | undefined = parent, hops = 0; p !== undefined; p = tx.find('goal', p)?.parent_goal_id, hops++) {
    if (p === id || hops > 10_000) throw new InputError(`goal "${id}" cannot have "${parent}" as parent: that makes a cycle`);
  }
}

/** Progress on a goal: a new absolute `progress` (0 to 1) or a `delta` to add (clamped to 0..1), metrics, evidence to append. */
export type ProgressDelta = z.infer<typeof ProgressDeltaSchema>;

/** Apply progress to a goal; evidence is appended (never removed). Reaching 1 marks an active goal achieved. */
export function updateProgress(tx: Tx, d: ProgressDelta): Goal {
  const goal = tx.edit('goal', d.goal_id);
  if (d.progress !== undefined) goal.progress = clamp(d.progress, 'progress');
  if (d.delta !== undefined) goal.progress = Math.min(1, Math.max(0, goal.progress + finite(d.delta, 'delta')));
  if (d.metrics !== undefined) for (const [k, v] of Object.entries(d.metrics)) goal.metrics[k] = finite(v, `metric ${k}`);
  addRefs(goal.evidence_refs, d.evidence_refs);
  if (d.status !== undefined) goal.status = d.status;
  else if (goal.progress >= 1 && goal.status === 'active') goal.status = 'achieved';
  goal.updated_at = tx.now;
  return goal;
}

/** An action to create: a turn commit's `new_actions` item. */
export type ActionInput = z.infer<typeof ActionInputSchema>;

export interface CreatedAction {
  action: PendingAction;
  /** Filed when the type was unknown (the action was coerced to user_task requiring confirmation). */
  proposal?: RegistryProposal | undefined;
}

/**
 * Create a pending action. Policies come from the type's registry entry; an unknown type is never
 * executed: the action becomes a user_task requiring confirmation (its requested type kept in
 * metadata.requested_type) and a registry proposal to add the type is filed. Deprecated types are refused.
 */
export function createAction(tx: Tx, registry: Registry, input: ActionInput, turnId?: string): CreatedAction {
  requireText(input.title, 'action title');
  if (typeof input.type !== 'string' || input.type === '') throw new InputError('an action needs a type');
  let compiled = registry.types.get(input.type);
  let proposal: RegistryProposal | undefined;
  const metadata = safeRecord(input.metadata ?? {}, 'metadata');
  if (compiled === undefined) {
    const fallback = registry.types.get(SAFE_DEFAULT_TYPE);
    if (fallback === undefined) throw new InputError(`unknown action type "${input.type}", and the registry has no ${SAFE_DEFAULT_TYPE} to fall back to`);
    metadata.requested_type = input.type;
    proposal = fileUnknownTypeProposal(tx, input.type, input.title, turnId, fallback);
    compiled = fallback;
  } else if (compiled.type.deprecation_status === 'deprecated') {
    throw new InputError(`action type "${input.type}" is deprecated: new actions of it are refused`, 'deprecated-type');
  }
  const type = compiled.type;
  const owner = proposal !== undefined ? 'user' : (input.owner ?? type.allowed_owners[0]!);
  if (!type.allowed_owners.includes(owner)) throw new OwnerError(`action type "${type.id}" cannot be owned by the ${owner} (allowed: ${type.allowed_owners.join(', ')})`);
  if (input.goal_id !== undefined) tx.get('goal', input.goal_id);
  const action: PendingAction = {
    id: input.id ?? tx.nextId('action'),
    type: type.id,
    owner,
    title: input.title,
    priority: input.priority === undefined ? 0 : nonNegative(input.priority, 'priority'),
    status: compiled.initial,
    created_by: tx.who,
    evidence_refs: [...new Set(input.evidence_refs ?? [])],
    metadata,
    created_at: tx.now,
    updated_at: tx.now,
    version: 0,
  };
  if (input.description !== undefined) action.description = input.description;
  if (input.effort !== undefined) {
    if (!(input.effort > 0) || !Number.isFinite(input.effort)) throw new InputError(`effort must be a positive number, got ${String(input.effort)}`);
    action.effort = input.effort;
  }
  if (input.due_at !== undefined) action.due_at = timestamp(input.due_at, 'due_at');
  if (input.goal_id !== undefined) action.goal_id = input.goal_id;
  const blocking = input.blocking ?? type.default_policies.blocking;
  if (blocking !== undefined) action.blocking = blocking;
  // The type's confirmation policy is the user's safeguard: the agent may add it, never waive it.
  if (input.requires_confirmation === false && type.default_policies.requires_confirmation === true && proposal === undefined && tx.actor.role === 'agent') {
    throw new OwnerError(`action type "${type.id}" requires confirmation: the agent cannot create one with requires_confirmation false`);
  }
  // A coerced action always requires confirmation, whatever the caller asked for.
  const confirm = proposal !== undefined ? true : (input.requires_confirmation ?? type.default_policies.requires_confirmation);
  if (confirm !== undefined) action.requires_confirmation = confirm;
  if (turnId !== undefined) action.created_from_turn_id = turnId;
  tx.create('action', action);
  return proposal === undefined ? { action } : { action, proposal };
}

/**
 * The proposal filed for an unknown type: pre-filled with the semantics the action was coerced to
 * (the safe default type's statuses, transitions, policies and guard; owned by the user; requiring
 * confirmation), so a reviewer can approve and merge it as filed, or amend it first to give the
 * type semantics of its own. A type id that is not a valid name is left out (amend sets one).
 */
function fileUnknownTypeProposal(tx: Tx, typeId: string, title: string, turnId: string | undefined, fallback: CompiledActionType): RegistryProposal {
  const open = tx.state.proposals.find((p) => p.proposal_type === 'add' && p.type_id === typeId && (p.status === 'open' || p.status === 'approved'));
  if (open !== undefined) return open;
  const safe = fallback.type;
  return submitProposal(tx, {
    proposal_type: 'add',
    type_id: ID_SAFE.test(typeId) ? typeId : undefined,
    display_name: typeId.slice(0, 200),
    allowed_owners: ['user'],
    suggested_policies: { ...structuredClone(safe.default_policies), requires_confirmation: true },
    allowed_statuses: [...safe.allowed_statuses],
    allowed_transitions: structuredClone(safe.allowed_transitions),
    policy_handlers: safe.policy_handlers === undefined ? undefined : structuredClone(safe.policy_handlers),
    rationale: `an action "${title.slice(0, 200)}" referenced the unknown type "${typeId.slice(0, 200)}"; it was coerced to ${SAFE_DEFAULT_TYPE} requiring confirmation. Filed with ${SAFE_DEFAULT_TYPE}'s semantics (owned by the user, requires confirmation): amend it to give the type its own before approving`,
    examples: [title.slice(0, 1000)],
    created_from_turn_id: turnId,
  });
}
const ID_SAFE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export interface MoveOptions {
  handlers?: PolicyHandlers | undefined;
  evidence_refs?: string[] | undefined;
}

/**
 * Move an action to another status. The type's machine must have the edge; the agent may not move
 * a user-owned action into a terminal status, nor complete a type whose policy forbids auto-completion;
 * completing an action that requires confirmation needs the user's confirmation first (a user
 * completing it confirms it).
 */
export function moveAction(tx: Tx, registry: Registry, id: string, to: string, options: MoveOptions = {}): PendingAction {
  const current = tx.get('action', id);
  const compiled = typeOf(registry, current);
  if (!canTransition(compiled, current.status, to)) throw new TransitionError(current.type, id, current.status, to, nextStatuses(compiled, current.status));
  const agent = tx.actor.role === 'agent';
  if (compiled.terminal.has(to)) {
    if (agent && current.owner === 'user') throw new OwnerError(`${id} is owned by the user: the agent cannot ${CANCEL_STATUSES.has(to) ? 'cancel' : 'complete'} it (status "${to}")`);
    if (!CANCEL_STATUSES.has(to)) {
      if (agent && compiled.type.default_policies.auto_complete === false) throw new OwnerError(`${id} (${current.type}) cannot be completed by the agent: its type does not allow auto-completion`);
      if (current.requires_confirmation === true && current.confirmed_at === undefined && agent) throw new ConfirmationRequiredError(id);
      const guard = compiled.type.policy_handlers?.completion_guard;
      if (guard !== undefined) {
        const handler = (Object.hasOwn(options.handlers ?? {}, guard) ? options.handlers![guard] : undefined) ?? (Object.hasOwn(BUILTIN_POLICY_HANDLERS, guard) ? BUILTIN_POLICY_HANDLERS[guard] : undefined);
        if (handler === undefined) throw new InputError(`${id} (${current.type}): the completion guard "${guard}" has no handler, so the action cannot be completed (pass one in handlers, or remove the guard from the registry)`, 'completion-guard');
        const refusal = handler(current, to, tx.actor);
        if (refusal !== undefined) throw new InputError(`${id}: completion guard "${guard}" refused: ${refusal}`, 'completion-guard');
      }
    }
  }
  const action = tx.edit('action', id);
  if (compiled.terminal.has(to) && !CANCEL_STATUSES.has(to) && action.requires_confirmation === true && action.confirmed_at === undefined) {
    action.confirmed_at = tx.now;
    action.confirmed_by = tx.who;
  }
  action.status = to;
  addRefs(action.evidence_refs, options.evidence_refs);
  action.updated_at = tx.now;
  return action;
}

/** The completion status of an action: "done" if its type has it, else the first terminal status that is not a cancellation. */
export function completionStatus(compiled: CompiledActionType): string | undefined {
  const targets = compiled.type.allowed_statuses.filter((s) => compiled.terminal.has(s) && !CANCEL_STATUSES.has(s));
  return targets.includes('done') ? 'done' : targets[0];
}

/** Complete an action, through intermediate statuses if the type needs them (each step checked). */
export function completeAction(tx: Tx, registry: Registry, id: string, options: MoveOptions = {}): PendingAction {
  const current = tx.get('action', id);
  const compiled = typeOf(registry, current);
  const target = completionStatus(compiled);
  if (target === undefined) throw new InputError(`${id} (${current.type}): the type has no completion status`, 'invalid-input');
  if (current.status === target) return current;
  const path = compiled.terminal.has(current.status) ? null : shortestPath(compiled.machine, current.status, target);
  if (path === null) throw new TransitionError(current.type, id, current.status, target, nextStatuses(compiled, current.status));
  let action = current;
  for (const step of path) action = moveAction(tx, registry, id, step, options);
  return action;
}

/** The user confirms an action that requires confirmation (the agent cannot confirm). */
export function confirmAction(tx: Tx, id: string): PendingAction {
  if (tx.actor.role !== 'user') throw new OwnerError(`only the user can confirm ${id}`);
  const action = tx.edit('action', id);
  if (action.confirmed_at === undefined) {
    action.confirmed_at = tx.now;
    action.confirmed_by = tx.who;
    action.updated_at = tx.now;
  }
  return action;
}

/**
 * Give an action coerced to the safe default type (its type was unknown: `metadata.requested_type`)
 * the type it asked for, once that type is in the registry (a proposal merged). The status carries
 * over when the new type has it (the initial status maps to the new initial one); a finished action
 * stays as it is. Ownership follows the new type when the current owner is not allowed. The agent may
 * add a confirmation requirement, never waive one: re-typed by the agent, an action that required
 * confirmation still does; the user's re-type takes the type's own policy.
 */
export function retypeAction(tx: Tx, registry: Registry, id: string): PendingAction {
  const current = tx.get('action', id);
  const requested = current.metadata.requested_type;
  if (typeof requested !== 'string') throw new InputError(`action ${id} was not coerced from an unknown type (no metadata.requested_type): its type never changes`);
  const target = registry.types.get(requested);
  if (target === undefined) throw new InputError(`action ${id} asked for type "${requested}", which the registry still does not have: merge its proposal first (ratchet proposals list)`, 'proposal-state');
  if (target.type.deprecation_status === 'deprecated') throw new InputError(`action type "${requested}" is deprecated: action ${id} stays a ${current.type}`, 'deprecated-type');
  const from = typeOf(registry, current);
  if (from.terminal.has(current.status)) throw new InputError(`action ${id} is ${current.status} (final): there is nothing left to re-type`);
  const status = current.status === from.initial ? target.initial : current.status;
  if (!target.type.allowed_statuses.includes(status)) throw new InputError(`action ${id} is ${current.status}, which type "${requested}" does not have (its statuses: ${target.type.allowed_statuses.join(', ')}): move it back to ${from.initial} first`);
  const previous = current.type;
  const a = tx.edit('action', id);
  a.type = requested;
  a.status = status;
  if (!target.type.allowed_owners.includes(a.owner)) a.owner = target.type.allowed_owners[0]!;
  const policy = target.type.default_policies.requires_confirmation;
  const confirm = tx.actor.role === 'user' ? policy : a.requires_confirmation === true || policy === true;
  if (confirm === undefined) delete a.requires_confirmation;
  else a.requires_confirmation = confirm;
  const { requested_type: _done, ...metadata } = a.metadata;
  a.metadata = { ...metadata, retyped_from: previous };
  a.updated_at = tx.now;
  return a;
}

export interface ActionPatch {
  title?: string | undefined;
  description?: string | undefined;
  priority?: number | undefined;
  effort?: number | undefined;
  due_at?: string | undefined;
  goal_id?: string | undefined;
  blocking?: boolean | undefined;
  evidence_refs?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** What the owner decides about their own action, by the name a refusal gives it. */
const OWNER_FIELDS: readonly [keyof ActionPatch, string][] = [
  ['title', 'title'],
  ['description', 'description'],
  ['priority', 'priority'],
  ['effort', 'effort'],
  ['due_at', 'due date'],
  ['goal_id', 'goal'],
  ['blocking', 'blocking flag'],
];

/**
 * Change an action's descriptive fields (status changes go through moveAction; owner and type never
 * change). The agent may not rewrite a user-owned action's title, description, priority, effort, due
 * date, goal or blocking flag: those are the user's decisions about their own work. Metadata and
 * evidence may be added by either.
 */
export function updateAction(tx: Tx, id: string, patch: ActionPatch): PendingAction {
  const current = tx.get('action', id);
  if (tx.actor.role === 'agent' && current.owner === 'user') {
    const fields = OWNER_FIELDS.filter(([key]) => patch[key] !== undefined).map(([, name]) => name);
    if (fields.length > 0) throw new OwnerError(`${id} is owned by the user: the agent cannot change its ${fields.length === 1 ? fields[0]! : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)!}`}`);
  }
  const action = tx.edit('action', id);
  if (patch.title !== undefined) action.title = requireText(patch.title, 'action title');
  if (patch.description !== undefined) action.description = patch.description;
  if (patch.priority !== undefined) action.priority = nonNegative(patch.priority, 'priority');
  if (patch.effort !== undefined) action.effort = patch.effort > 0 ? patch.effort : nonPositive(patch.effort);
  if (patch.due_at !== undefined) action.due_at = timestamp(patch.due_at, 'due_at');
  if (patch.goal_id !== undefined) action.goal_id = tx.get('goal', patch.goal_id).id;
  if (patch.blocking !== undefined) action.blocking = patch.blocking;
  if (patch.metadata !== undefined) for (const [k, v] of Object.entries(safeRecord(patch.metadata, 'metadata'))) action.metadata[k] = v;
  addRefs(action.evidence_refs, patch.evidence_refs);
  action.updated_at = tx.now;
  return action;
}

/** When an action with an escalation policy is due to escalate (due_at + after), in ms since the epoch. */
export function escalationTime(action: PendingAction, compiled: CompiledActionType): number | undefined {
  const policy = compiled.type.default_policies.escalation;
  if (policy === undefined || action.due_at === undefined) return undefined;
  const due = Date.parse(action.due_at);
  if (Number.isNaN(due)) return undefined;
  return due + (policy.after === undefined ? 0 : (parseDuration(policy.after) ?? 0));
}

/**
 * Escalate every pending action whose escalation time has passed (reminders after their due time):
 * `escalated_at` is set once, and the status moves to "escalated" where the type's machine allows it.
 */
export function escalateDue(tx: Tx, registry: Registry, nowMs: number): PendingAction[] {
  const out: PendingAction[] = [];
  for (const candidate of tx.state.actions) {
    if (candidate.escalated_at !== undefined) continue;
    const compiled = registry.types.get(candidate.type);
    if (compiled === undefined || compiled.terminal.has(candidate.status)) continue;
    const when = escalationTime(candidate, compiled);
    if (when === undefined || when > nowMs) continue;
    // Another agent's action escalates when that agent (or the user) writes, not in this actor's turn.
    if (!tx.may('action', candidate)) continue;
    const action = tx.edit('action', candidate.id);
    action.escalated_at = tx.now;
    if (canTransition(compiled, action.status, 'escalated')) action.status = 'escalated';
    action.updated_at = tx.now;
    out.push(action);
  }
  return out;
}

/** A question to create, or (with the id of an existing one) to update: a turn commit's `questions` item. */
export type QuestionInput = z.infer<typeof QuestionInputSchema>;

export function upsertQuestion(tx: Tx, input: QuestionInput): Question {
  if (input.goal_id !== undefined) tx.get('goal', input.goal_id);
  if (input.id !== undefined && tx.find('question', input.id) !== undefined) {
    const q = tx.edit('question', input.id);
    if (input.text !== undefined) q.text = requireText(input.text, 'question text');
    if (input.goal_id !== undefined) q.goal_id = input.goal_id;
    if (input.priority !== undefined) q.priority = nonNegative(input.priority, 'priority');
    if (input.status !== undefined) q.status = input.status;
    if (input.owner !== undefined) q.owner = input.owner;
    if (input.tags !== undefined) q.tags = [...new Set([...q.tags, ...input.tags])];
    q.updated_at = tx.now;
    return q;
  }
  const q: Question = {
    id: input.id ?? tx.nextId('question'),
    text: requireText(input.text, 'question text'),
    priority: input.priority === undefined ? 0 : nonNegative(input.priority, 'priority'),
    status: input.status ?? 'open',
    tags: [...new Set(input.tags ?? [])],
    created_at: tx.now,
    updated_at: tx.now,
    version: 0,
  };
  if (input.goal_id !== undefined) q.goal_id = input.goal_id;
  if (input.owner !== undefined) q.owner = input.owner;
  return tx.create('question', q);
}

/**
 * A story to create or update: `id` the story (absent with question_id: the question's story, created
 * if it has none); acceptance criteria and evidence given are added, never removed.
 */
export type StoryUpdate = z.infer<typeof StoryUpdateSchema>;

/** Create or update a story. Acceptance criteria and evidence only grow; the narrative evolves. */
export function upsertStory(tx: Tx, update: StoryUpdate): Story {
  let id = update.id;
  if (id === undefined) {
    if (update.question_id === undefined) throw new InputError('a story update needs an id or a question_id');
    id = tx.state.stories.find((s) => s.question_id === update.question_id)?.id;
  }
  if (id !== undefined && tx.find('story', id) !== undefined) {
    const story = tx.edit('story', id);
    if (update.question_id !== undefined && update.question_id !== story.question_id) throw new InputError(`story "${id}" belongs to question "${story.question_id}", not "${update.question_id}"`);
    if (update.narrative !== undefined) story.narrative = update.narrative;
    for (const c of update.acceptance_criteria ?? []) if (!story.acceptance_criteria.includes(c)) story.acceptance_criteria.push(c);
    addRefs(story.evidence_refs, update.evidence_refs);
    if (update.status !== undefined) story.status = update.status;
    story.last_updated = tx.now;
    return story;
  }
  if (update.question_id === undefined) throw new InputError(`no story "${id ?? ''}"; to create one give its question_id`, 'not-found');
  tx.get('question', update.question_id);
  const story: Story = {
    id: id ?? tx.nextId('story'),
    question_id: update.question_id,
    narrative: update.narrative ?? '',
    acceptance_criteria: [...new Set(update.acceptance_criteria ?? [])],
    evidence_refs: [...new Set(update.evidence_refs ?? [])],
    status: update.status ?? 'draft',
    last_updated: tx.now,
    version: 0,
  };
  return tx.create('story', story);
}

/** The fields that describe the action type a proposal adds or changes. */
export type ProposedTypeFields = Pick<ProposalInput, 'type_id' | 'display_name' | 'description' | 'diff' | 'allowed_owners' | 'suggested_policies' | 'allowed_statuses' | 'allowed_transitions' | 'policy_handlers'>;

/** A proposal as submitted (JSON Schema: `@ratchet/goals/schemas/proposal.schema.json`). */
export type ProposalInput = z.infer<typeof ProposalInputSchema>;

/** Absent and undefined are the same to a caller; JSON has no undefined. */
const definedOnly = (input: unknown): unknown =>
  input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) : input;

/** Check a proposal as submitted against its schema (`schemas/proposal.schema.json`): every problem, with its pointer. */
export function checkProposal(input: unknown): asserts input is ProposalInput {
  const issues = proposalIssues(definedOnly(input));
  if (issues.length > 0) throw InputError.invalid('proposal', issues.map(({ pointer, message }) => ({ pointer, message })));
}

/** The fields a `modify` proposal changes in the type (see applyProposal). */
const MODIFIABLE = ['display_name', 'description', 'allowed_owners', 'suggested_policies', 'allowed_statuses', 'allowed_transitions', 'policy_handlers'] as const;

/** File a registry proposal. It is only data until merged: it never changes the running registry. */
export function submitProposal(tx: Tx, input: ProposalInput): RegistryProposal {
  checkProposal(input);
  requireText(input.rationale, 'proposal rationale');
  if (!['add', 'modify', 'deprecate'].includes(input.proposal_type)) throw new InputError(`proposal_type must be add, modify or deprecate, got ${JSON.stringify(input.proposal_type)}`);
  if (input.proposal_type !== 'add' && input.type_id === undefined) throw new InputError(`a ${input.proposal_type} proposal needs a type_id`);
  if (input.type_id !== undefined) checkId(input.type_id, 'action type');
  // A modify that names no field would merge as a no-op yet still take a review and a merge.
  if (input.proposal_type === 'modify' && !MODIFIABLE.some((key) => input[key] !== undefined)) {
    throw new InputError(`a modify proposal of "${input.type_id ?? ''}" changes nothing: give at least one of ${MODIFIABLE.join(', ')}`);
  }
  const p: RegistryProposal = {
    id: input.id ?? tx.nextId('proposal'),
    proposal_type: input.proposal_type,
    rationale: input.rationale,
    examples: [...(input.examples ?? [])],
    risks: [...(input.risks ?? [])],
    created_by: tx.who,
    status: 'open',
    reviewers: [],
    created_at: tx.now,
    updated_at: tx.now,
    version: 0,
  };
  for (const key of ['type_id', 'display_name', 'description', 'diff', 'allowed_owners', 'suggested_policies', 'allowed_statuses', 'allowed_transitions', 'policy_handlers', 'created_from_turn_id'] as const) {
    if (input[key] !== undefined) (p as unknown as Record<string, unknown>)[key] = structuredClone(input[key]);
  }
  checkProposedType(p);
  return tx.create('proposal', p);
}

/** The fields of a proposal an amendment may replace (JSON Schema: `@ratchet/goals/schemas/proposal-amendment.schema.json`). */
export type ProposalAmendment = z.infer<typeof ProposalAmendmentSchema>;

const AMENDABLE = ['type_id', 'display_name', 'description', 'diff', 'allowed_owners', 'suggested_policies', 'allowed_statuses', 'allowed_transitions', 'policy_handlers', 'rationale', 'examples', 'risks'] as const;

/** Check an amendment against its schema: every problem, with its pointer. */
export function checkAmendment(input: unknown): asserts input is ProposalAmendment {
  const issues = amendmentIssues(definedOnly(input));
  if (issues.length > 0) throw InputError.invalid('amendment', issues.map(({ pointer, message }) => ({ pointer, message })));
}

/**
 * Amend an open or approved proposal: each field the amendment gives replaces the proposal's. The
 * result must still be a valid proposal, and an `add` that is complete must describe a valid action
 * type (checked as the registry checks one). An approved proposal goes back to review (status open):
 * the approval was for other content. Rejected and merged proposals are final. The audit entry
 * (op `proposal.amend`) keeps the proposal before and after.
 */
export function amendProposal(tx: Tx, id: string, amendment: ProposalAmendment): RegistryProposal {
  checkAmendment(amendment);
  const current = tx.get('proposal', id);
  if (current.status === 'rejected' || current.status === 'merged') throw new InputError(`proposal ${id} is already ${current.status}: submit a new proposal instead`, 'proposal-state');
  const given = AMENDABLE.filter((key) => amendment[key] !== undefined);
  if (given.length === 0) throw new InputError(`the amendment of proposal ${id} changes nothing: give at least one of ${AMENDABLE.join(', ')}`);
  if (amendment.type_id !== undefined) checkId(amendment.type_id, 'action type');
  if (amendment.rationale !== undefined) requireText(amendment.rationale, 'proposal rationale');
  const next: RegistryProposal = structuredClone(current);
  for (const key of given) (next as unknown as Record<string, unknown>)[key] = structuredClone(amendment[key]);
  dropOrphanedGuard(next, amendment);
  checkProposedType(next);
  if (JSON.stringify(next) === JSON.stringify(current)) return current;
  const p = tx.edit('proposal', id);
  for (const key of given) (p as unknown as Record<string, unknown>)[key] = structuredClone(amendment[key]);
  dropOrphanedGuard(p, amendment);
  if (p.status === 'approved') p.status = 'open';
  p.updated_at = tx.now;
  return p;
}

/**
 * A proposal filed for an unknown type carries user_task's guard (only the user's acknowledgment
 * completes it). An amendment that hands the type to owners other than the user, without saying
 * which guard it wants, would keep that guard and leave the new owner unable to ever complete its
 * own actions: the inherited guard goes with the ownership it was for.
 */
function dropOrphanedGuard(p: RegistryProposal, amendment: ProposalAmendment): void {
  if (amendment.allowed_owners === undefined || amendment.policy_handlers !== undefined) return;
  if (p.allowed_owners?.includes('user') !== false || p.policy_handlers?.completion_guard !== USER_ONLY_GUARD) return;
  const { completion_guard: _dropped, ...rest } = p.policy_handlers;
  if (Object.keys(rest).length === 0) delete p.policy_handlers;
  else p.policy_handlers = rest;
}

/** The built-in completion guard only the user passes. */
const USER_ONLY_GUARD = 'user_acknowledgment';

/** An `add` proposal complete enough to merge must describe a valid action type: every problem, pointing into the proposal. */
function checkProposedType(p: RegistryProposal): void {
  if (p.allowed_owners !== undefined && !p.allowed_owners.includes('user') && p.policy_handlers?.completion_guard === USER_ONLY_GUARD) {
    throw InputError.invalid(`action type "${p.type_id ?? ''}" in proposal ${p.id}`, [{ pointer: '/policy_handlers/completion_guard', message: `"${USER_ONLY_GUARD}" lets only the user complete an action, but the type's owners (${p.allowed_owners.join(', ')}) exclude the user: nobody who owns it could ever complete it` }]);
  }
  const issues = proposedTypeIssues(p);
  if (issues.length > 0) throw InputError.invalid(`action type "${p.type_id ?? ''}" in proposal ${p.id}`, issues);
}

/**
 * Approve or reject a proposal (open or approved ones; a rejection is final, a merge is final).
 * Reviewing is the maintainer's part: the agent (the planner that submits proposals) cannot review.
 */
export function reviewProposal(tx: Tx, id: string, decision: 'approve' | 'reject', comments: string): RegistryProposal {
  if (decision !== 'approve' && decision !== 'reject') throw new InputError(`decision must be approve or reject, got ${JSON.stringify(decision)}`);
  if (tx.actor.role !== 'user') throw new OwnerError(`only the user (a maintainer) can review proposal ${id}; the agent can submit proposals, not approve or reject them`);
  const current = tx.get('proposal', id);
  if (current.status === 'rejected' || current.status === 'merged') throw new InputError(`proposal ${id} is already ${current.status}`, 'proposal-state');
  const p = tx.edit('proposal', id);
  p.reviewers.push({ reviewer: tx.who, decision, comments, at: tx.now });
  p.status = decision === 'approve' ? 'approved' : 'rejected';
  p.updated_at = tx.now;
  return p;
}

export function markMerged(tx: Tx, id: string): RegistryProposal {
  const p = tx.edit('proposal', id);
  p.status = 'merged';
  p.updated_at = tx.now;
  return p;
}

export function typeOf(registry: Registry, action: PendingAction): CompiledActionType {
  const compiled = registry.types.get(action.type);
  if (compiled === undefined) throw new InputError(`${action.id} has type "${action.type}", which the registry does not define`, 'invalid-input');
  return compiled;
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A deep copy of caller data, refusing keys that could reach prototypes when assigned. */
function safeRecord(value: Record<string, unknown>, what: string): Record<string, unknown> {
  const walk = (v: unknown, path: string): void => {
    if (v === null || typeof v !== 'object') return;
    for (const k of Object.keys(v)) {
      if (!Array.isArray(v) && RESERVED_KEYS.has(k)) throw new InputError(`refusing the key "${k}" in ${path}: it could alter object prototypes`, 'unsafe-input');
      walk((v as Record<string, unknown>)[k], `${path}.${k}`);
    }
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${what} must be an object`);
  walk(value, what);
  return structuredClone(value);
}

function addRefs(target: string[], refs: readonly string[] | undefined): void {
  for (const r of refs ?? []) {
    if (typeof r !== 'string' || r === '') throw new InputError('evidence refs must be non-empty strings');
    if (!target.includes(r)) target.push(r);
  }
}

function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputError(`${what} must be a non-empty string`);
  return value;
}

function finite(n: unknown, what: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new InputError(`${what} must be a finite number, got ${String(n)}`);
  return n;
}

function clamp(n: unknown, what: string): number {
  const v = finite(n, what);
  if (v < 0 || v > 1) throw new InputError(`${what} must be between 0 and 1, got ${v}`);
  return v;
}

function nonNegative(n: unknown, what: string): number {
  const v = finite(n, what);
  if (v < 0) throw new InputError(`${what} must not be negative, got ${v}`);
  return v;
}

function nonPositive(n: number): never {
  throw new InputError(`effort must be a positive number, got ${n}`);
}

/** Timestamps are stored canonical (UTC, milliseconds: `2030-01-01T09:00:00.000Z`), so they compare as strings. */
function timestamp(value: string, what: string): string {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t) || t < 0 || t > 253402300799999) throw new InputError(`${what} must be an ISO 8601 timestamp between years 1970 and 9999, got ${JSON.stringify(value)}`);
  return new Date(t).toISOString();
}
