/**
 * Access scopes (seed 002: "Access control: scope by agent_id/org_id; optional cross-agent sharing
 * by ACL"). Goals, pending actions and Scratch Page items carry the agent and org they belong to,
 * stamped from the acting agent when they are created, and an optional ACL. An agent sees and
 * changes only what its scope or an ACL entry grants.
 *
 * The rules, in one place so the transaction (writes) and the views (reads) agree:
 * - an item with neither agent_id nor org_id is visible to and changeable by all: every state file
 *   written before scopes existed keeps working unchanged;
 * - an item with an agent_id belongs to that agent (and, with an org_id, to that agent in that org);
 *   an item with only an org_id belongs to every agent of the org;
 * - an ACL entry grants read or write (write implies read) to an agent, an agent within an org, or a
 *   whole org;
 * - only the item's own scope (or an unscoped user: the person running the project, who sees all)
 *   changes its agent_id, org_id or ACL: a write grant is not a grant to re-scope or re-share.
 * Questions, stories of questions, proposals, plans and turns are not scoped: they are shared.
 */
import { ScopeError } from './errors.js';
import type { Tx } from './tx.js';
import type { AclEntry, Actor, AuditEntry, EntityKind, GoalsState, Scoped } from './types.js';

export type Access = 'read' | 'write';

/** The kinds of entity that carry a scope. */
export const SCOPED_KINDS: ReadonlySet<EntityKind> = new Set<EntityKind>(['goal', 'action', 'observation']);

/**
 * An actor with no agent and no org who is the user: the person who owns the project, not an agent
 * in a multi-agent setup. It sees everything, as before scopes. An agent never is unrestricted: an
 * agent that leaves out --agent sees only unscoped items.
 */
export function isUnrestricted(actor: Actor): boolean {
  return actor.role === 'user' && actor.agent_id === undefined && actor.org_id === undefined;
}

export function isScoped(item: Scoped): boolean {
  return item.agent_id !== undefined || item.org_id !== undefined;
}

/** Whether `actor` is the item's own scope: the agent it belongs to, or for an org-wide item, an agent of the org. */
export function ownsScope(item: Scoped, actor: Actor): boolean {
  if (isUnrestricted(actor)) return true;
  if (!isScoped(item)) return false;
  if (item.agent_id !== undefined && item.agent_id !== actor.agent_id) return false;
  return item.org_id === undefined || item.org_id === actor.org_id;
}

function grants(entry: AclEntry, actor: Actor): boolean {
  if (entry.agent_id === undefined && entry.org_id === undefined) return false;
  if (entry.agent_id !== undefined && entry.agent_id !== actor.agent_id) return false;
  return entry.org_id === undefined || entry.org_id === actor.org_id;
}

/** Whether `actor` may read (or write) the item. */
export function canAccess(item: Scoped, actor: Actor, access: Access): boolean {
  if (!isScoped(item) || ownsScope(item, actor)) return true;
  return (item.acl ?? []).some((e) => grants(e, actor) && (access === 'read' || e.access === 'write'));
}

/** `agent "b" in org "acme"`, `org "acme"`, `no agent (--agent not given)`. */
export function describeScope(scope: { agent_id?: string | undefined; org_id?: string | undefined }, role?: string): string {
  const agent = scope.agent_id === undefined ? undefined : `agent ${JSON.stringify(scope.agent_id)}`;
  const org = scope.org_id === undefined ? undefined : `org ${JSON.stringify(scope.org_id)}`;
  if (agent !== undefined) return org === undefined ? agent : `${agent} in ${org}`;
  if (org !== undefined) return role === undefined ? org : `the ${role} in ${org}`;
  return role === undefined ? 'no scope' : `the ${role} without an agent id (--agent / RATCHET_AGENT not set)`;
}

/** The refusal: whose the item is, who asked, and how access would be granted. */
export function scopeRefusal(kind: EntityKind, id: string, item: Scoped, actor: Actor, access: Access): ScopeError {
  const grantee = actor.agent_id !== undefined ? `--agent-grant ${actor.agent_id}` : actor.org_id !== undefined ? `--org-grant ${actor.org_id}` : '--agent-grant <id>';
  const owner = item.agent_id !== undefined ? `--agent ${item.agent_id}${item.org_id === undefined ? '' : ` --org ${item.org_id}`}` : `--org ${item.org_id ?? ''} --agent <an agent of it>`;
  return new ScopeError(
    `${kind} ${id} belongs to ${describeScope(item)}; ${describeScope(actor, actor.role)} has no ${access} access ` +
      `(its owner grants it with: ratchet goals share ${kind} ${id} ${grantee} --access ${access} ${owner})`,
  );
}

/** Refuse (ScopeError) unless `actor` may read or write the entity; entities of unscoped kinds always pass. */
export function checkAccess(kind: EntityKind, id: string, entity: object, actor: Actor, access: Access): void {
  const item = entity as Scoped;
  if (SCOPED_KINDS.has(kind) && !canAccess(item, actor, access)) throw scopeRefusal(kind, id, item, actor, access);
}

const sameScopeFields = (a: Scoped, b: Scoped): boolean => a.agent_id === b.agent_id && a.org_id === b.org_id && JSON.stringify(a.acl ?? []) === JSON.stringify(b.acl ?? []);

/**
 * What a mutation may do to scope fields, judged on before/after images in the transaction (so no
 * operation, library caller or input file can slip a field past it): a new item is in the actor's
 * own scope (an agent cannot create an item "for" another agent by naming it in a field); an
 * existing item's agent_id, org_id and ACL change only by its own scope; every ACL entry names an
 * agent or an org.
 */
export function checkScopeChange(kind: EntityKind, id: string, before: Scoped | null, after: Scoped | null, actor: Actor): void {
  if (!SCOPED_KINDS.has(kind) || after === null) return;
  (after.acl ?? []).forEach((e, i) => {
    if (e.agent_id === undefined && e.org_id === undefined) throw new ScopeError(`${kind} ${id}: ACL entry ${i} names neither an agent_id nor an org_id`);
  });
  if (isUnrestricted(actor)) return;
  if (before === null) {
    if (after.agent_id !== actor.agent_id || after.org_id !== actor.org_id) {
      throw new ScopeError(`${kind} ${id} would belong to ${describeScope(after)}, but it is created by ${describeScope(actor, actor.role)}: an agent creates items in its own scope only (share them with "ratchet goals share" instead)`);
    }
    return;
  }
  if (sameScopeFields(before, after)) return;
  if (!ownsScope(before, actor)) {
    throw new ScopeError(`${kind} ${id} belongs to ${describeScope(before)}; ${describeScope(actor, actor.role)} cannot change its scope or ACL (only its owner shares it)`);
  }
  if (after.agent_id !== before.agent_id || after.org_id !== before.org_id) {
    throw new ScopeError(`${kind} ${id} belongs to ${describeScope(before)}: its agent_id and org_id do not change (share it with an ACL entry instead)`);
  }
}

/** Put the actor's scope on a new item (unless it names one: checkScopeChange then judges it). */
export function stampScope(entity: object, actor: Actor): void {
  const item = entity as Scoped;
  if (item.agent_id === undefined && item.org_id === undefined) {
    if (actor.agent_id !== undefined) item.agent_id = actor.agent_id;
    if (actor.org_id !== undefined) item.org_id = actor.org_id;
  }
}

/**
 * The state as `actor` may see it: goals, actions and Scratch Page items outside its scope are left
 * out, and so are questions serving a goal it cannot see (and their stories); audit entries keep their
 * versions but only the changes to entities it can see. An unrestricted actor gets the state as is.
 * What `assess`, `planContext`, listings and history read in a multi-agent setup.
 */
export function scopedView(state: GoalsState, actor: Actor): GoalsState {
  if (isUnrestricted(actor)) return state;
  const visible = (item: Scoped): boolean => canAccess(item, actor, 'read');
  const goals = state.goals.filter(visible);
  const goalIds = new Set(goals.map((g) => g.id));
  const hiddenGoals = new Set(state.goals.filter((g) => !goalIds.has(g.id)).map((g) => g.id));
  const questions = state.questions.filter((q) => q.goal_id === undefined || !hiddenGoals.has(q.goal_id));
  const questionIds = new Set(questions.map((q) => q.id));
  const out: GoalsState = {
    ...state,
    goals,
    actions: state.actions.filter(visible),
    questions,
    stories: state.stories.filter((s) => questionIds.has(s.question_id)),
    audit: state.audit.map((e) => visibleChanges(e, actor)),
  };
  if (state.observations !== undefined) out.observations = state.observations.filter(visible);
  // Compacted history: the before-images, milestones and archived items of hidden entities stay hidden.
  if (state.audit_summaries !== undefined) {
    const seen = (kind: EntityKind, image: Record<string, unknown> | null | undefined): boolean => !SCOPED_KINDS.has(kind) || canAccess((image ?? {}), actor, 'read');
    const current = new Map<string, Scoped>([...state.goals.map((g) => [`goal\u0000${g.id}`, g] as const), ...state.actions.map((a) => [`action\u0000${a.id}`, a] as const), ...(state.observations ?? []).map((o) => [`observation\u0000${o.id}`, o] as const)]);
    out.audit_summaries = state.audit_summaries.map((s) => {
      const copy = { ...s, milestones: s.milestones.filter((m) => !hiddenGoals.has(m.goal_id)), archived: s.archived.filter((a) => (a.kind !== 'observation' || seen('observation', current.get(`observation\u0000${a.id}`) as Record<string, unknown> | undefined)) && (a.goal_id === undefined || !hiddenGoals.has(a.goal_id))) };
      if (s.base !== undefined) copy.base = s.base.filter((b) => seen(b.kind, b.image ?? (current.get(`${b.kind}\u0000${b.id}`) as Record<string, unknown> | undefined)));
      return copy;
    });
  }
  return out;
}

function visibleChanges(entry: AuditEntry, actor: Actor): AuditEntry {
  const changes = entry.changes.filter((c) => !SCOPED_KINDS.has(c.kind) || canAccess((c.after ?? c.before ?? {}) as Scoped, actor, 'read'));
  return changes.length === entry.changes.length ? entry : { ...entry, changes };
}

/** A grant to add (or, with access "none", to remove) on an item. */
export interface ShareInput {
  agent_id?: string | undefined;
  org_id?: string | undefined;
  access: Access | 'none';
}

/**
 * Share an item (or withdraw a grant): the ACL entry for exactly this agent/org pair is replaced.
 * Only the item's own scope may do it (checked when the transaction finishes); an unscoped item is
 * visible to all already, so sharing it is refused.
 */
export function applyShare(item: Scoped, kind: EntityKind, id: string, input: ShareInput): Scoped {
  if (!SCOPED_KINDS.has(kind)) throw new ScopeError(`a ${kind} has no access scope: only goals, actions and Scratch Page items are shared`);
  if (input.agent_id === undefined && input.org_id === undefined) throw new ScopeError(`sharing ${kind} ${id}: name the agent or the org to grant (--agent-grant / --org-grant)`);
  if (!isScoped(item)) throw new ScopeError(`${kind} ${id} has no scope (it is visible to and changeable by all): there is nothing to share`);
  const same = (e: AclEntry): boolean => e.agent_id === input.agent_id && e.org_id === input.org_id;
  const rest = (item.acl ?? []).filter((e) => !same(e));
  if (input.access !== 'none') {
    const entry: AclEntry = { access: input.access };
    if (input.agent_id !== undefined) entry.agent_id = input.agent_id;
    if (input.org_id !== undefined) entry.org_id = input.org_id;
    rest.push(entry);
  }
  if (rest.length === 0) delete item.acl;
  else item.acl = rest;
  return item;
}

export type ScopedKind = 'goal' | 'action' | 'observation';

/** `ratchet goals share`: grant (or withdraw) access to a goal, action or Scratch Page item, as one audited mutation. */
export function shareItem(tx: Tx, kind: ScopedKind, id: string, input: ShareInput): Scoped {
  const item = tx.edit(kind, id);
  applyShare(item, kind, id, input);
  item.updated_at = tx.now;
  return item;
}
