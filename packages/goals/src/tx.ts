/**
 * A mutation in progress over a draft state. Operations read and change entities through it, so it
 * knows exactly what changed: at the end it stamps the new version on what changed and writes one
 * immutable audit entry with before/after images (which is what `revert` replays backwards).
 */
import { GoalsError, InputError, OwnerError } from './errors.js';
import { stateIssues } from './validate.js';
import { SCOPED_KINDS, canAccess, checkAccess, checkScopeChange, stampScope, type Access } from './scope.js';
import type { Actor, AuditEntry, Change, EntityKind, Goal, GoalsState, Observation, PendingAction, PlanRun, Question, RegistryProposal, Story, TurnRecord } from './types.js';

export interface EntityOf {
  goal: Goal;
  action: PendingAction;
  question: Question;
  story: Story;
  proposal: RegistryProposal;
  turn: TurnRecord;
  plan: PlanRun;
  observation: Observation;
}

const COLLECTION = { goal: 'goals', action: 'actions', question: 'questions', story: 'stories', proposal: 'proposals', turn: 'turns', plan: 'plans', observation: 'observations' } as const;
const PREFIX: Record<EntityKind, string> = { goal: 'g', action: 'a', question: 'q', story: 's', proposal: 'p', turn: 't', plan: 'pl', observation: 'o' };
/** Ids are names; the same rule the schema applies, checked early so errors name the input. */
export const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

export function emptyState(): GoalsState {
  return { version: 0, counters: {}, goals: [], actions: [], questions: [], stories: [], proposals: [], turns: [], audit: [] };
}

export class Tx {
  readonly state: GoalsState;
  readonly now: string;
  readonly actor: Actor;
  private readonly index = new Map<EntityKind, Map<string, number>>();
  private readonly touched = new Map<string, { kind: EntityKind; id: string; before: Record<string, unknown> | null }>();

  constructor(state: GoalsState, now: string, actor: Actor) {
    // A name that is the other role would read in the audit as that role acting.
    if ((actor.name === 'user' || actor.name === 'agent') && actor.name !== actor.role) {
      throw new OwnerError(`the ${actor.role} cannot record itself as ${JSON.stringify(actor.name)}: the audit names who acted`);
    }
    this.state = state;
    this.now = now;
    this.actor = actor;
  }

  get who(): string {
    return this.actor.name ?? this.actor.role;
  }

  private list<K extends EntityKind>(kind: K): EntityOf[K][] {
    // `plans` is optional in the state (files from before it existed): created on first use.
    const state = this.state as unknown as Record<string, unknown[] | undefined>;
    return (state[COLLECTION[kind]] ??= []) as EntityOf[K][];
  }

  private indexOf(kind: EntityKind): Map<string, number> {
    let map = this.index.get(kind);
    if (map === undefined) {
      map = new Map();
      this.list(kind).forEach((e, i) => map!.set(e.id, i));
      this.index.set(kind, map);
    }
    return map;
  }

  find<K extends EntityKind>(kind: K, id: string): EntityOf[K] | undefined {
    const i = this.indexOf(kind).get(id);
    return i === undefined ? undefined : this.list(kind)[i];
  }

  get<K extends EntityKind>(kind: K, id: string): EntityOf[K] {
    const found = this.find(kind, id);
    if (found === undefined) throw new InputError(`no ${kind} "${id}"`, 'not-found');
    return found;
  }

  /** The live entity, to mutate; its before-image is recorded the first time. */
  edit<K extends EntityKind>(kind: K, id: string): EntityOf[K] {
    const entity = this.get(kind, id);
    // The one door every change to an existing entity goes through: the actor's scope is checked here.
    checkAccess(kind, id, entity, this.actor, 'write');
    this.record(kind, id, entity);
    return entity;
  }

  /** Whether the actor may read or change this entity (access scopes): loops that sweep every item skip the others'. */
  may(kind: EntityKind, entity: object, access: Access = 'write'): boolean {
    return !SCOPED_KINDS.has(kind) || canAccess(entity, this.actor, access);
  }

  create<K extends EntityKind>(kind: K, entity: EntityOf[K]): EntityOf[K] {
    checkId(entity.id, kind);
    if (this.find(kind, entity.id) !== undefined) throw new InputError(`${kind} "${entity.id}" already exists`, 'duplicate-id');
    if (SCOPED_KINDS.has(kind)) stampScope(entity, this.actor);
    this.record(kind, entity.id, undefined);
    const list = this.list(kind);
    list.push(entity);
    this.indexOf(kind).set(entity.id, list.length - 1);
    return entity;
  }

  /** Put back an entity as it was (revert): create, replace or remove. */
  restore(kind: EntityKind, id: string, image: Record<string, unknown> | null): void {
    const current = this.find(kind, id);
    // A revert is no way round access scopes: it may only touch what the actor may change, as it is and as it was.
    if (current !== undefined) checkAccess(kind, id, current, this.actor, 'write');
    if (image !== null) checkAccess(kind, id, image, this.actor, 'write');
    this.record(kind, id, current);
    const list = this.list(kind) as unknown as Record<string, unknown>[];
    if (image === null) {
      if (current === undefined) return;
      list.splice(this.indexOf(kind).get(id)!, 1);
      this.index.delete(kind);
    } else if (current === undefined) {
      list.push(structuredClone(image));
      this.index.delete(kind);
    } else {
      list[this.indexOf(kind).get(id)!] = structuredClone(image);
    }
  }

  /** A fresh id for `kind`: g1, a2, ... (skipping ids already taken by callers who chose their own). */
  nextId(kind: EntityKind): string {
    let n = this.state.counters[kind] ?? 0;
    let id: string;
    do id = `${PREFIX[kind]}${++n}`;
    while (this.find(kind, id) !== undefined);
    this.state.counters[kind] = n;
    return id;
  }

  get changed(): boolean {
    return this.touched.size > 0;
  }

  /** Stamp the new version and append the audit entry. Returns undefined when nothing changed. */
  finish(meta: { op: string; turn_id?: string | undefined; reverted_to?: number | undefined }): AuditEntry | undefined {
    const changes: Change[] = [];
    const version = this.state.version + 1;
    for (const { kind, id, before } of this.touched.values()) {
      const entity = this.find(kind, id) as unknown as Record<string, unknown> | undefined;
      if (before === null && entity === undefined) continue;
      if (before !== null && entity !== undefined && sameJson(before, entity)) {
        // Touched but not changed (only timestamps moved): put it back exactly as it was.
        Object.assign(entity, before);
        continue;
      }
      if (entity !== undefined && meta.reverted_to === undefined) entity.version = version;
      changes.push({ kind, id, before, after: entity === undefined ? null : structuredClone(entity) });
    }
    if (changes.length === 0) return undefined;
    for (const c of changes) if (c.after !== null) checkEntity(c.kind, c.id, c.after);
    if (meta.reverted_to === undefined) for (const c of changes) this.checkScopes(c);
    const entry: AuditEntry = { version, previous_version: this.state.version, who: this.who, role: this.actor.role, at: this.now, op: meta.op, changes };
    if (meta.turn_id !== undefined) entry.turn_id = meta.turn_id;
    if (meta.reverted_to !== undefined) entry.reverted_to = meta.reverted_to;
    if (this.actor.agent_id !== undefined) entry.agent_id = this.actor.agent_id;
    if (this.actor.org_id !== undefined) entry.org_id = this.actor.org_id;
    this.state.version = version;
    this.state.audit.push(entry);
    return entry;
  }

  /** Scope fields changed only as scope.ts allows; a goal an item points to is one the actor can see. */
  private checkScopes(c: Change): void {
    checkScopeChange(c.kind, c.id, c.before, c.after, this.actor);
    if (c.after === null || !SCOPED_KINDS.has(c.kind)) return;
    for (const field of ['goal_id', 'parent_goal_id'] as const) {
      const ref = c.after[field];
      if (typeof ref !== 'string' || ref === (c.before ?? {})[field]) continue;
      const goal = this.find('goal', ref);
      if (goal !== undefined) checkAccess('goal', ref, goal, this.actor, 'read');
    }
  }

  private record(kind: EntityKind, id: string, entity: object | undefined): void {
    const key = `${kind}\u0000${id}`;
    if (!this.touched.has(key)) this.touched.set(key, { kind, id, before: entity === undefined ? null : (structuredClone(entity) as Record<string, unknown>) });
  }
}

/**
 * Each changed entity against the state schema, before anything is written: the store would refuse
 * the write anyway, but with a place in the state file (`/goals/3/priority`); this names the entity
 * and the field the caller gave (`goal "g4": priority must be >= 0`).
 */
function checkEntity(kind: EntityKind, id: string, entity: Record<string, unknown>): void {
  const probe = emptyState() as unknown as Record<string, unknown[]>;
  probe[COLLECTION[kind]] = [entity];
  const prefix = `/${COLLECTION[kind]}/0`;
  const issues = stateIssues(probe).map((i) => ({ pointer: i.pointer.startsWith(prefix) ? i.pointer.slice(prefix.length) : i.pointer, message: i.message }));
  if (issues.length === 0) return;
  const field = (p: string): string => (p === '' ? '' : `${p.slice(1).replaceAll('/', '.')} `);
  const first = issues[0]!;
  throw new InputError(`${kind} "${id}": ${field(first.pointer)}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`, 'invalid-input');
}

export function checkId(id: unknown, what: string): asserts id is string {
  if (typeof id !== 'string' || !ID.test(id) || RESERVED.has(id)) {
    throw new InputError(`invalid ${what} id ${JSON.stringify(id)}: use letters, digits, "_", ".", ":" or "-", starting with a letter or digit`, typeof id === 'string' && RESERVED.has(id) ? 'unsafe-input' : 'invalid-input');
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  // Versions are stamped on every touched entity; an edit that changed nothing else is no change.
  const strip = (v: unknown): string => JSON.stringify(v, (k, x: unknown) => (k === 'version' || k === 'updated_at' || k === 'last_updated' ? undefined : x));
  return strip(a) === strip(b);
}

export const isGoalsError = (err: unknown): err is GoalsError => err instanceof GoalsError;
