/**
 * The pending actions of the goals area as typed operations (`ratchet actions list|add|update|move|
 * complete|retype|confirm`; the MCP tools `actions_list`, `actions_add`, `actions_update`,
 * `actions_complete`): what each finds or changes, and the document `--json` prints for it. The
 * owner rules are the library's, judged for the actor the location names (on the MCP channel always
 * the agent): the agent cannot complete or change a user-owned action.
 */
import { assess, completeAction, confirmAction, createAction, isPending, moveAction, retypeAction, updateAction, type PendingAction, type RegistryProposal } from '@ratchet/goals';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import type { AddActionInput, ChangeActionInput, ListActionsInput, UpdateActionInput, GoalsPlace } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export type { AddActionInput, ChangeActionInput, ListActionsInput, UpdateActionInput } from './goals-input.js';

export interface ActionList {
  version: number;
  actions: PendingAction[];
}

/** An action written: the state version after, and whether anything changed (a no-op writes no version). */
export interface ActionChanged {
  version: number;
  action: PendingAction;
  changed: boolean;
}

export interface ActionAdded extends ActionChanged {
  /** Filed when the type was unknown (the action became a user_task requiring confirmation). */
  proposal?: RegistryProposal | undefined;
}

async function shared() {
  return import('../commands/goals/shared.js');
}

/** Pending actions in assessment order, then (with `all` or a status filter) the finished ones. */
export async function listActions(ctx: Context, input: ListActionsInput): Promise<ActionList> {
  const { loadRegistryFor, mapErrors, openState } = await shared();
  const place: GoalsPlace = input;
  return mapErrors(ctx, async () => {
    const registry = await loadRegistryFor(ctx, place);
    const state = await (await openState(ctx, place)).read();
    const pending = assess(state, registry, { now: Date.now(), actions: Number.MAX_SAFE_INTEGER, owner: input.owner }).actions.map((a) => a.action);
    // A status filter names what it wants: finished statuses included, as with --all.
    const withDone = input.all === true || input.status !== undefined;
    const done = withDone ? state.actions.filter((a) => !isPending(registry, a) && (input.owner === undefined || a.owner === input.owner)) : [];
    const { goal, status, type } = input;
    if (goal !== undefined && !state.goals.some((g) => g.id === goal)) throw new CliError(`actions list --goal: no goal "${goal}" (ratchet goals list --all)`);
    const actions = [...pending, ...done].filter((a) => (status === undefined || status.includes(a.status)) && (type === undefined || type.includes(a.type)) && (goal === undefined || a.goal_id === goal));
    return { version: state.version, actions };
  });
}

export function listActionsResult(list: ActionList): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: list.version, actions: list.actions } };
}

/** The registry, the state and what every action mutation is judged with (actor, version, trusted registry). */
async function writing(ctx: Context, input: AddActionInput | UpdateActionInput | ChangeActionInput) {
  const { actorOf, loadRegistryFor, openState, registryFileOf } = await shared();
  const place: GoalsPlace = input;
  const registry = await loadRegistryFor(ctx, place);
  const store = await openState(ctx, place);
  return { registry, store, meta: { actor: actorOf(ctx, place), expected_version: input.expectedVersion, registry: registryFileOf(ctx, place, registry) } };
}

/** Add a pending action; an unknown type becomes a user_task requiring confirmation and files a proposal. */
export async function addAction(ctx: Context, input: AddActionInput): Promise<ActionAdded> {
  const { mapErrors } = await shared();
  return mapErrors(ctx, async () => {
    const { registry, store, meta } = await writing(ctx, input);
    const r = await store.mutate({ ...meta, op: 'action.create' }, (tx) =>
      createAction(tx, registry, {
        id: input.id,
        type: input.type,
        title: input.title,
        owner: input.owner,
        priority: input.priority,
        effort: input.effort,
        due_at: input.due,
        goal_id: input.goal,
        blocking: input.blocking === true ? true : undefined,
        metadata: plainRecord(input.meta),
      }),
    );
    return { version: r.version, action: r.result.action, proposal: r.result.proposal, changed: r.entry !== undefined };
  });
}

export function addActionResult(added: ActionAdded): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: added.version, action: added.action, ...(added.proposal === undefined ? {} : { proposal: added.proposal }) } };
}

/** Change only the fields given; at least one. */
export async function updateActionFields(ctx: Context, input: UpdateActionInput): Promise<ActionChanged> {
  const { mapErrors } = await shared();
  const patch = { title: input.title, description: input.description, priority: input.priority, effort: input.effort, due_at: input.due, goal_id: input.goal, blocking: input.blocking };
  return mapErrors(ctx, async () => {
    const { store, meta } = await writing(ctx, input);
    if (Object.values(patch).every((v) => v === undefined)) throw new CliError('actions update: give at least one of --title, --description, --priority, --effort, --due, --goal, --blocking/--no-blocking');
    const r = await store.mutate({ ...meta, op: 'action.update' }, (tx) => updateAction(tx, input.id, patch));
    return { version: r.version, action: r.result, changed: r.entry !== undefined };
  });
}

export function updateActionResult(r: ActionChanged): OperationResult {
  return { exitCode: EXIT_OK, document: versioned('actions-update', { ok: true, version: r.version, action: r.action }) };
}

/** Move, complete, re-type or confirm one action; metadata given is recorded first, in the same version. */
export async function changeAction(ctx: Context, input: ChangeActionInput): Promise<ActionChanged> {
  const { mapErrors } = await shared();
  return mapErrors(ctx, async () => {
    const { registry, store, meta } = await writing(ctx, input);
    const evidence = input.evidence === undefined ? undefined : [...input.evidence];
    const metadata = plainRecord(input.meta);
    const r = await store.mutate({ ...meta, op: `action.${input.change}` }, (tx) => {
      if (input.change === 'confirm') return confirmAction(tx, input.id);
      if (input.change === 'retype') return retypeAction(tx, registry, input.id);
      // Recorded in the same version as the move, and before it: a completion guard may need it.
      if (Object.keys(metadata).length > 0) updateAction(tx, input.id, { metadata });
      if (input.change === 'complete') return completeAction(tx, registry, input.id, { evidence_refs: evidence });
      if (input.status === undefined) throw new CliError('actions move: missing <status>');
      return moveAction(tx, registry, input.id, input.status, { evidence_refs: evidence });
    });
    return { version: r.version, action: r.result, changed: r.entry !== undefined };
  });
}

export function changeActionResult(r: ActionChanged): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: r.version, action: r.action } };
}

/** A null-prototype copy of a key=value map: a `__proto__` key stays a key (the library decides whether it is allowed). */
function plainRecord(values: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(values ?? {})) out[key] = value;
  return out;
}
