/**
 * The Scratch Page (seed 002, "Relationship to Scratch Page"): low-commitment stories and
 * observations that may expire, beside the Frontal Cortex's formal goals and actions. An item is
 * added, reviewed, promoted to a goal or an action (which keeps a link to the observation that
 * motivated it: "all Frontal Cortex actions should be traceable to the observations that motivated
 * them"), archived, or expires.
 *
 * Expiry needs no daemon: an item past its `expires_at` leaves the active set whenever the state is
 * read (`scratchView`), and `expireObservations` archives such items for good when someone writes.
 */
import { InputError } from './errors.js';
import { createAction, upsertGoal, type ActionInput, type CreatedAction, type GoalInput } from './ops.js';
import type { Registry } from './registry.js';
import type { Tx } from './tx.js';
import type { Goal, GoalsState, Observation, ObservationStatus } from './types.js';

/** Seven days, the seed's default time to live. */
export const SCRATCH_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface ObservationInput {
  id?: string | undefined;
  type?: Observation['type'] | undefined;
  content: string;
  source: string;
  owner?: Observation['owner'] | undefined;
  confidence?: number | undefined;
  tags?: string[] | undefined;
  /** Time to live in ms from now (default 7 days); or give `expires_at`. */
  ttl_ms?: number | undefined;
  expires_at?: string | undefined;
}

export function addObservation(tx: Tx, input: ObservationInput): Observation {
  if (typeof input.content !== 'string' || input.content.trim() === '') throw new InputError('an observation needs content');
  if (typeof input.source !== 'string' || input.source.trim() === '') throw new InputError('an observation needs a source (the tool, daemon or file that saw it)');
  const confidence = input.confidence ?? 0.5;
  if (!(confidence >= 0 && confidence <= 1)) throw new InputError(`confidence must be from 0 to 1, got ${String(input.confidence)}`);
  const ttl = input.ttl_ms ?? SCRATCH_TTL_MS;
  if (!Number.isFinite(ttl) || ttl <= 0) throw new InputError('the time to live must be positive');
  let expires: string;
  if (input.expires_at !== undefined) {
    const t = Date.parse(input.expires_at);
    if (Number.isNaN(t)) throw new InputError(`expires_at ${JSON.stringify(input.expires_at)} is not an ISO 8601 time`);
    expires = new Date(t).toISOString();
  } else {
    expires = new Date(Date.parse(tx.now) + ttl).toISOString();
  }
  return tx.create('observation', {
    id: input.id ?? tx.nextId('observation'),
    type: input.type ?? 'observation',
    content: input.content,
    source: input.source,
    owner: input.owner ?? tx.actor.role,
    status: 'active',
    confidence,
    tags: [...new Set(input.tags ?? [])],
    expires_at: expires,
    created_by: tx.who,
    created_at: tx.now,
    updated_at: tx.now,
    version: 0,
  });
}

/** Whether the item has expired by `now` (ms): past its time and not settled (resolved or archived). */
export function isExpired(o: Observation, now: number): boolean {
  return (o.status === 'active' || o.status === 'pending_review') && Date.parse(o.expires_at) <= now;
}

export interface ScratchView {
  /** Active and pending-review items that have not expired, newest first. */
  active: Observation[];
  /** Past their time: out of the active set, still in the file until archived. */
  expired: Observation[];
  /** Resolved and archived items. */
  settled: Observation[];
}

/** The Scratch Page as of `now`: expiry applies on read. */
export function scratchView(state: GoalsState, now: number, filter: { status?: ObservationStatus | undefined; tag?: string | undefined } = {}): ScratchView {
  const view: ScratchView = { active: [], expired: [], settled: [] };
  const items = (state.observations ?? []).filter((o) => (filter.status === undefined || o.status === filter.status) && (filter.tag === undefined || o.tags.includes(filter.tag)));
  for (const o of items) (isExpired(o, now) ? view.expired : o.status === 'active' || o.status === 'pending_review' ? view.active : view.settled).push(o);
  const newest = (a: Observation, b: Observation): number => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? -1 : 1);
  view.active.sort(newest);
  view.expired.sort(newest);
  view.settled.sort(newest);
  return view;
}

/** The moves review allows: flag for review, back to active, resolve. Archived is final. */
const REVIEW: Record<ObservationStatus, ObservationStatus[]> = {
  active: ['pending_review', 'resolved'],
  pending_review: ['active', 'resolved'],
  resolved: ['active'],
  archived: [],
};

function live(tx: Tx, id: string, what: string): Observation {
  const o = tx.edit('observation', id);
  if (o.status === 'archived') throw new InputError(`observation ${id} is archived: it cannot be ${what}`, 'scratch-state');
  if (isExpired(o, Date.parse(tx.now))) throw new InputError(`observation ${id} expired at ${o.expires_at}: it cannot be ${what} (add it again if it still matters)`, 'scratch-state');
  o.updated_at = tx.now;
  return o;
}

export function reviewObservation(tx: Tx, id: string, status: ObservationStatus, note?: string): Observation {
  const o = live(tx, id, 'reviewed');
  if (!REVIEW[o.status].includes(status)) throw new InputError(`observation ${id} is ${o.status}: review can move it to ${REVIEW[o.status].join(' or ') || 'nothing'}, not ${status}`, 'scratch-state');
  o.status = status;
  o.reviewed_by = tx.who;
  if (note !== undefined && note.trim() !== '') o.review_note = note;
  return o;
}

export function archiveObservation(tx: Tx, id: string): Observation {
  const o = tx.edit('observation', id);
  if (o.status === 'archived') return o;
  o.status = 'archived';
  o.updated_at = tx.now;
  return o;
}

/** Archive every item past its time (the write side of expiry); returns their ids. */
export function expireObservations(tx: Tx): string[] {
  const now = Date.parse(tx.now);
  const ids: string[] = [];
  for (const o of tx.state.observations ?? []) {
    if (!isExpired(o, now) || !tx.may('observation', o)) continue;
    const e = tx.edit('observation', o.id);
    e.status = 'archived';
    e.expired = true;
    e.updated_at = tx.now;
    ids.push(o.id);
  }
  return ids;
}

export type Promotion = { to: 'goal'; goal: GoalInput } | { to: 'action'; action: ActionInput };

/**
 * Turn an observation into a commitment: a goal or a pending action that links back to it
 * (`scratch:<id>` in its evidence, and for an action `metadata.observation_id`). The observation
 * is resolved and records what it became.
 */
export function promoteObservation(tx: Tx, registry: Registry, id: string, promotion: Promotion): { observation: Observation; goal?: Goal; action?: CreatedAction } {
  const o = live(tx, id, 'promoted');
  if (o.promoted_to !== undefined) throw new InputError(`observation ${id} was already promoted to ${o.promoted_to.kind} ${o.promoted_to.id}`, 'scratch-state');
  const ref = `scratch:${id}`;
  if (promotion.to === 'goal') {
    if (promotion.goal.id !== undefined && tx.find('goal', promotion.goal.id) !== undefined) throw new InputError(`goal ${promotion.goal.id} exists: promotion creates a new goal`, 'duplicate-id');
    const created = upsertGoal(tx, { title: o.content.slice(0, 1000), ...promotion.goal });
    const goal = tx.edit('goal', created.id);
    goal.evidence_refs = [...new Set([...goal.evidence_refs, ref])];
    o.promoted_to = { kind: 'goal', id: goal.id };
    o.status = 'resolved';
    return { observation: o, goal };
  }
  const input = promotion.action;
  const created = createAction(tx, registry, {
    ...input,
    evidence_refs: [...new Set([...(input.evidence_refs ?? []), ref])],
    metadata: { ...input.metadata, observation_id: id },
  });
  o.promoted_to = { kind: 'action', id: created.action.id };
  o.status = 'resolved';
  return { observation: o, action: created };
}
