/**
 * Turn end: `commit` applies a turn's deltas in one mutation, idempotently by turn id. The turn's
 * payload is hashed (sha256 of canonical JSON); replaying the same turn changes nothing, replaying
 * a turn id with different content is refused (it would silently drop the second payload).
 */
import { createHash } from 'node:crypto';
import { InputError } from './errors.js';
import {
  completeAction,
  createAction,
  escalateDue,
  moveAction,
  updateProgress,
  upsertGoal,
  upsertQuestion,
  upsertStory,
  type ActionInput,
  type GoalInput,
  type PolicyHandlers,
  type ProgressDelta,
  type QuestionInput,
  type StoryUpdate,
} from './ops.js';
import type { Registry } from './registry.js';
import { checkId, type Tx } from './tx.js';
import type { PendingAction, RegistryProposal } from './types.js';

export interface CompletedAction {
  id: string;
  /** A specific terminal status (default: the type's completion status, e.g. "done"). */
  status?: string | undefined;
  evidence_refs?: string[] | undefined;
}

export interface TurnCommit {
  turn_id: string;
  /** Optimistic locking: the state version the turn started from (from `assess`). */
  expected_version?: number | undefined;
  goals?: GoalInput[] | undefined;
  questions?: QuestionInput[] | undefined;
  progress?: ProgressDelta[] | undefined;
  new_actions?: ActionInput[] | undefined;
  completed_actions?: (string | CompletedAction)[] | undefined;
  story_updates?: StoryUpdate[] | undefined;
}

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

const COMMIT_KEYS = new Set(['turn_id', 'expected_version', 'goals', 'questions', 'progress', 'new_actions', 'completed_actions', 'story_updates']);

/** Check the commit's shape before anything is applied (commits come from agents as JSON). */
export function checkCommit(commit: unknown): asserts commit is TurnCommit {
  if (commit === null || typeof commit !== 'object' || Array.isArray(commit)) throw new InputError('a turn commit must be a JSON object');
  for (const key of Object.keys(commit)) if (!COMMIT_KEYS.has(key)) throw new InputError(`unknown key "${key}" in the turn commit (expected ${[...COMMIT_KEYS].join(', ')})`);
  const c = commit as Record<string, unknown>;
  checkId(c.turn_id, 'turn');
  if (c.expected_version !== undefined && !(Number.isSafeInteger(c.expected_version) && (c.expected_version as number) >= 0)) throw new InputError('expected_version must be a non-negative integer');
  for (const key of ['goals', 'questions', 'progress', 'new_actions', 'completed_actions', 'story_updates']) {
    const v = c[key];
    if (v === undefined) continue;
    if (!Array.isArray(v)) throw new InputError(`${key} must be an array`);
    for (const [i, item] of v.entries()) {
      const ok = key === 'completed_actions' ? typeof item === 'string' || (item !== null && typeof item === 'object' && !Array.isArray(item)) : item !== null && typeof item === 'object' && !Array.isArray(item);
      if (!ok) throw new InputError(`${key}[${i}] must be ${key === 'completed_actions' ? 'an action id or an object' : 'an object'}`);
    }
  }
}

/** sha256 of the commit's canonical JSON (keys sorted), without expected_version. */
export function commitDigest(commit: TurnCommit): string {
  const { expected_version: _ignored, ...rest } = commit;
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
  for (const g of commit.goals ?? []) upsertGoal(tx, g);
  for (const q of commit.questions ?? []) upsertQuestion(tx, q);
  for (const p of commit.progress ?? []) updateProgress(tx, p);
  const created: PendingAction[] = [];
  const proposals: RegistryProposal[] = [];
  for (const input of commit.new_actions ?? []) {
    const r = createAction(tx, registry, input, turn);
    created.push(r.action);
    if (r.proposal !== undefined && !proposals.includes(r.proposal)) proposals.push(r.proposal);
  }
  const completed: PendingAction[] = [];
  for (const item of commit.completed_actions ?? []) {
    const c = typeof item === 'string' ? { id: item } : item;
    const options = { handlers, evidence_refs: c.evidence_refs };
    completed.push(c.status === undefined ? completeAction(tx, registry, c.id, options) : moveAction(tx, registry, c.id, c.status, options));
  }
  for (const s of commit.story_updates ?? []) upsertStory(tx, s);
  const escalated = escalateDue(tx, registry, nowMs);
  tx.create('turn', { id: turn, digest, version: tx.state.version + 1, at: tx.now, by: tx.who });
  return { turn_id: turn, created: created.map(clone), completed: completed.map(clone), escalated: escalated.map(clone), proposals: proposals.map(clone) };
}

const clone = <T>(x: T): T => structuredClone(x);
