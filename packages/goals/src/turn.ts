/**
 * Turn end: `commit` applies a turn's deltas in one mutation, idempotently by turn id. The turn's
 * payload is hashed (sha256 of canonical JSON); replaying the same turn changes nothing, replaying
 * a turn id with different content is refused (it would silently drop the second payload).
 */
import { createHash } from 'node:crypto';
import { GoalsError, InputError } from './errors.js';
import { commitIssues } from './validate.js';
import {
  completeAction,
  createAction,
  escalateDue,
  moveAction,
  updateAction,
  updateProgress,
  upsertGoal,
  upsertQuestion,
  upsertStory,
  type PolicyHandlers,
} from './ops.js';
import type { z } from 'zod';
import type { Registry } from './registry.js';
import type { CompletedActionSchema, TurnCommitSchema } from './schema.js';
import { checkId, type Tx } from './tx.js';
import type { PendingAction, RegistryProposal } from './types.js';

/** A `completed_actions` item given as an object: a specific terminal `status`, evidence, and `metadata` merged in before the action moves. */
export type CompletedAction = Exclude<z.infer<typeof CompletedActionSchema>, string>;

/** A turn's deltas (JSON Schema: `@ratchet/goals/schemas/turn-commit.schema.json`); `expected_version` is the optimistic lock. */
export type TurnCommit = z.infer<typeof TurnCommitSchema>;

export interface CommitResult {
  turn_id: string;
  /** True when this turn had already been committed: nothing changed. */
  replayed: boolean;
  version: number;
  created: PendingAction[];
  completed: PendingAction[];
  escalated: PendingAction[];
  /** Proposals filed for unknown action types. */
  proposals: RegistryProposal[];
}

/**
 * Check the commit against its schema before anything is applied (commits come from agents as
 * JSON): every problem, each with its JSON pointer, in one InputError.
 */
export function checkCommit(commit: unknown): asserts commit is TurnCommit {
  const issues = commitIssues(commit);
  if (issues.length > 0) throw InputError.invalid('turn commit', issues.map(({ pointer, message }) => ({ pointer, message })));
  checkId((commit as TurnCommit).turn_id, 'turn');
}

/** sha256 of the commit's canonical JSON (keys sorted), without expected_version and $schema. */
export function commitDigest(commit: TurnCommit): string {
  const { expected_version: _ignored, $schema: _schema, ...rest } = commit;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether the turn was committed already (and with the same payload: otherwise a turn-mismatch error). */
export function findReplay(tx: Tx, commit: TurnCommit, digest = commitDigest(commit)): boolean {
  const seen = tx.find('turn', commit.turn_id);
  if (seen === undefined) return false;
  if (seen.digest !== digest) throw new InputError(`turn ${commit.turn_id} was already committed (at version ${seen.version}) with different content; use a new turn id`, 'turn-mismatch');
  return true;
}

/** Apply a turn's deltas (the caller checked for a replay and the expected version). */
export function applyCommit(tx: Tx, registry: Registry, commit: TurnCommit, nowMs: number, handlers?: PolicyHandlers): Omit<CommitResult, 'replayed' | 'version'> {
  const digest = commitDigest(commit);
  const turn = commit.turn_id;
  // Each delta is applied at its place in the commit, so a refusal names it (`/completed_actions/2`).
  (commit.goals ?? []).forEach((g, i) => at(`/goals/${i}`, () => upsertGoal(tx, g)));
  (commit.questions ?? []).forEach((q, i) => at(`/questions/${i}`, () => upsertQuestion(tx, q)));
  (commit.progress ?? []).forEach((p, i) => at(`/progress/${i}`, () => updateProgress(tx, p)));
  const created: PendingAction[] = [];
  const proposals: RegistryProposal[] = [];
  (commit.new_actions ?? []).forEach((input, i) => {
    const r = at(`/new_actions/${i}`, () => createAction(tx, registry, input, turn));
    created.push(r.action);
    if (r.proposal !== undefined && !proposals.includes(r.proposal)) proposals.push(r.proposal);
  });
  const completed: PendingAction[] = [];
  (commit.completed_actions ?? []).forEach((item, i) => {
    const c = typeof item === 'string' ? { id: item } : item;
    const options = { handlers, evidence_refs: c.evidence_refs };
    at(`/completed_actions/${i}`, () => {
      if (c.metadata !== undefined) updateAction(tx, c.id, { metadata: c.metadata });
      completed.push(c.status === undefined ? completeAction(tx, registry, c.id, options) : moveAction(tx, registry, c.id, c.status, options));
    });
  });
  (commit.story_updates ?? []).forEach((s, i) => at(`/story_updates/${i}`, () => upsertStory(tx, s)));
  const escalated = escalateDue(tx, registry, nowMs);
  tx.create('turn', { id: turn, digest, version: tx.state.version + 1, at: tx.now, by: tx.who });
  return { turn_id: turn, created: created.map(clone), completed: completed.map(clone), escalated: escalated.map(clone), proposals: proposals.map(clone) };
}

const clone = <T>(x: T): T => structuredClone(x);

function at<T>(pointer: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GoalsError) err.at(pointer);
    throw err;
  }
}
