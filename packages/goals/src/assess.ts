/**
 * Turn start: what the agent should look at. Selection is deterministic (same state, same options,
 * same result, whatever the order of the arrays) and runs in O(n log k): one pass computes each
 * pending action's sort key, bounded heaps keep the top k overall and per owner.
 *
 * Pending actions are ordered by, in turn:
 *   0. with a query: relevance to it, the number of its words the action's title and description
 *      (and the title of the goal it serves) share, highest first;
 *   1. utility density, priority / effort (effort defaults to 1), highest first;
 *   2. due date, earliest first (no due date last);
 *   3. blocking before non-blocking;
 *   4. goal alignment: the priority of the active goal the action serves, highest first (none last);
 *   5. creation time, oldest first;
 *   6. id, in code-point order (ids are unique, so the order is total).
 */
import { parseDuration } from './duration.js';
import { escalationTime } from './ops.js';
import type { Registry } from './registry.js';
import type { Goal, GoalsState, Owner, PendingAction, Question, Story } from './types.js';

export interface AssessOptions {
  /** The turn's clock, ms since the epoch (injected: overdue and escalation depend on it). */
  now: number;
  /** Top-K sizes (defaults: 10 goals, 10 actions overall and per owner, 5 questions). */
  goals?: number | undefined;
  actions?: number | undefined;
  questions?: number | undefined;
  /** The stimulus: goals, questions and pending actions sharing words with it rank first. */
  query?: string | undefined;
  /** Only this owner's actions, in `actions` and `by_owner` (the other owner's list is empty); `counts` still cover all. */
  owner?: Owner | undefined;
}

export interface AssessedAction {
  action: PendingAction;
  density: number;
  overdue: boolean;
  /** Past its escalation time and not escalated yet (`commit` escalates it). */
  escalation_due: boolean;
}

export interface Assessment {
  version: number;
  goals: Goal[];
  actions: AssessedAction[];
  by_owner: { agent: AssessedAction[]; user: AssessedAction[] };
  questions: { question: Question; story?: Story | undefined }[];
  counts: { pending: number; agent: number; user: number; overdue: number; escalation_due: number };
}

interface Keyed {
  i: number;
  /** Query words the action shares (0 without a query). */
  relevance: number;
  density: number;
  /** Canonical ISO 8601 UTC strings compare like the times they denote; ABSENT sorts last. */
  due: string;
  blocking: number;
  goal: number;
  created: string;
  id: string;
}

const ABSENT = '\uffff';

/** Negative when `a` ranks before `b`. */
export function compareKeys(a: Keyed, b: Keyed): number {
  if (a.relevance !== b.relevance) return b.relevance - a.relevance;
  if (a.density !== b.density) return b.density - a.density;
  if (a.due !== b.due) return a.due < b.due ? -1 : 1;
  if (a.blocking !== b.blocking) return b.blocking - a.blocking;
  if (a.goal !== b.goal) return b.goal - a.goal;
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Keeps the k best items; the root is the worst kept, so most candidates are rejected in O(1). */
class TopK {
  private readonly heap: Keyed[] = [];
  constructor(private readonly k: number) {}
  /** Whether a candidate of this relevance and density could enter (cheap pre-check before building its key). */
  admits(relevance: number, density: number): boolean {
    if (this.k <= 0) return false;
    if (this.heap.length < this.k) return true;
    const worst = this.heap[0]!;
    return relevance > worst.relevance || (relevance === worst.relevance && density >= worst.density);
  }
  offer(x: Keyed): void {
    const h = this.heap;
    if (this.k <= 0) return;
    if (h.length < this.k) {
      h.push(x);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (compareKeys(h[i]!, h[p]!) <= 0) break;
        [h[i], h[p]] = [h[p]!, h[i]!];
        i = p;
      }
    } else if (compareKeys(x, h[0]!) < 0) {
      h[0] = x;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < h.length && compareKeys(h[l]!, h[worst]!) > 0) worst = l;
        if (r < h.length && compareKeys(h[r]!, h[worst]!) > 0) worst = r;
        if (worst === i) break;
        [h[i], h[worst]] = [h[worst]!, h[i]!];
        i = worst;
      }
    }
  }
  sorted(): Keyed[] {
    return [...this.heap].sort(compareKeys);
  }
}

/**
 * A timestamp as a canonical UTC string (`2030-01-01T00:00:00.000Z`), which compares like the time.
 * What Ratchet writes is canonical already (checked in O(1)); anything else is parsed once.
 */
function canonical(iso: string | undefined): string {
  if (iso === undefined) return ABSENT;
  if (iso.length === 24 && iso.charCodeAt(23) === 90 && iso.charCodeAt(10) === 84 && iso.charCodeAt(19) === 46) return iso;
  const t = Date.parse(iso);
  return Number.isNaN(t) || t < 0 || t > 253402300799999 ? ABSENT : new Date(t).toISOString();
}

/** Whether an action is still pending: its status is not terminal for its type (unknown types count as pending). */
export function isPending(registry: Registry, action: PendingAction): boolean {
  return !(registry.types.get(action.type)?.terminal.has(action.status) ?? false);
}

export function assess(state: GoalsState, registry: Registry, options: AssessOptions): Assessment {
  const now = options.now;
  const nowIso = new Date(now).toISOString();
  const kActions = options.actions ?? 10;
  const words = tokens(options.query ?? '');

  const activeGoals = state.goals.filter((g) => g.status === 'active');
  const goalPriority = new Map<string, number>();
  for (const g of activeGoals) goalPriority.set(g.id, g.priority);
  const relevance = (text: string): number => {
    if (words.size === 0) return 0;
    let n = 0;
    for (const w of tokens(text)) if (words.has(w)) n++;
    return n;
  };
  // An action serving a goal the query is about is about it too. One scan per action for the query's
  // words (a regex of them, whole words only), not a tokenisation of every title: 50,000 actions.
  const wordsIn = queryMatcher(words);
  const goalWords = new Map<string, string[]>();
  if (wordsIn !== undefined) for (const g of state.goals) goalWords.set(g.id, wordsIn(g.title));
  const actionRelevance = (a: PendingAction): number => {
    if (wordsIn === undefined) return 0;
    const found = wordsIn(a.description === undefined ? a.title : `${a.title} ${a.description}`);
    const fromGoal = a.goal_id === undefined ? undefined : goalWords.get(a.goal_id);
    if (fromGoal === undefined || fromGoal.length === 0) return found.length;
    return new Set([...found, ...fromGoal]).size;
  };

  // Per type, once: its terminal statuses, and the latest due time that has escalated by now.
  const types = new Map<string, { terminal: ReadonlySet<string>; escalateBefore: string | undefined }>();
  for (const [id, t] of registry.types) {
    const policy = t.type.default_policies.escalation;
    const after = policy === undefined ? undefined : policy.after === undefined ? 0 : (parseDuration(policy.after) ?? 0);
    types.set(id, { terminal: t.terminal, escalateBefore: after === undefined ? undefined : new Date(now - after).toISOString() });
  }

  const all = new TopK(kActions);
  const byOwner = { agent: new TopK(kActions), user: new TopK(kActions) };

  const actions = state.actions;
  const onlyOwner = options.owner;
  const agentTop = byOwner.agent;
  const userTop = byOwner.user;
  let pending = 0;
  let agentCount = 0;
  let overdue = 0;
  let escalationDue = 0;
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i]!;
    const info = types.get(a.type);
    if (info !== undefined && info.terminal.has(a.status)) continue;
    pending++;
    const owner = a.owner;
    if (owner === 'agent') agentCount++;
    const due = canonical(a.due_at);
    if (due !== ABSENT) {
      if (due <= nowIso) overdue++;
      if (info?.escalateBefore !== undefined && due <= info.escalateBefore && a.escalated_at === undefined) escalationDue++;
    }
    const effort = a.effort;
    const density = effort === undefined ? a.priority : a.priority / effort;
    const mine = owner === 'agent' ? agentTop : userTop;
    const wanted = onlyOwner === undefined || onlyOwner === owner;
    const rel = actionRelevance(a);
    const inAll = wanted && all.admits(rel, density);
    const inOwner = wanted && mine.admits(rel, density);
    if (!inAll && !inOwner) continue;
    // Only candidates that could make a top k get a full key (most are rejected on density alone).
    const goalId = a.goal_id;
    const key: Keyed = {
      i,
      relevance: rel,
      density,
      due,
      blocking: a.blocking === true ? 1 : 0,
      goal: goalId === undefined ? -1 : (goalPriority.get(goalId) ?? -1),
      created: canonical(a.created_at),
      id: a.id,
    };
    if (inAll) all.offer(key);
    if (inOwner) mine.offer(key);
  }
  const counts = { pending, agent: agentCount, user: pending - agentCount, overdue, escalation_due: escalationDue };

  const view = (k: Keyed): AssessedAction => {
    const action = actions[k.i]!;
    const compiled = registry.types.get(action.type);
    const when = compiled === undefined || action.escalated_at !== undefined ? undefined : escalationTime(action, compiled);
    return { action, density: k.density, overdue: k.due !== ABSENT && k.due <= nowIso, escalation_due: when !== undefined && when <= now };
  };

  const goals = activeGoals
    .map((g) => ({ g, r: relevance(`${g.title} ${g.description ?? ''}`) }))
    .sort((a, b) => b.r - a.r || b.g.priority - a.g.priority || a.g.progress - b.g.progress || cmp(a.g.id, b.g.id))
    .slice(0, options.goals ?? 10)
    .map((x) => x.g);
  const selected = new Set(goals.map((g) => g.id));

  const storyOf = new Map<string, Story>();
  for (const s of [...state.stories].sort((a, b) => cmp(a.id, b.id))) if (s.status !== 'archived' && !storyOf.has(s.question_id)) storyOf.set(s.question_id, s);
  const questions = state.questions
    .filter((q) => q.status === 'open')
    .map((q) => ({ q, r: relevance(q.text), aligned: q.goal_id !== undefined && selected.has(q.goal_id) ? 1 : 0 }))
    .sort((a, b) => b.r - a.r || b.aligned - a.aligned || b.q.priority - a.q.priority || cmp(a.q.id, b.q.id))
    .slice(0, options.questions ?? 5)
    .map(({ q }) => ({ question: q, story: storyOf.get(q.id) }));

  return {
    version: state.version,
    goals,
    actions: all.sorted().map(view),
    by_owner: { agent: byOwner.agent.sorted().map(view), user: byOwner.user.sorted().map(view) },
    questions,
    counts,
  };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The distinct query words a text holds as whole words (case-insensitive); undefined without a query.
 * A native substring search per word, the word boundaries checked only where it is found: this runs
 * over every pending action (50,000 in the bench) when a query is given.
 */
function queryMatcher(words: ReadonlySet<string>): ((text: string) => string[]) | undefined {
  if (words.size === 0) return undefined;
  const list = [...words];
  const wordChar = /[\p{L}\p{N}]/u;
  const edge = (text: string, i: number): boolean => i < 0 || i >= text.length || !wordChar.test(text[i]!);
  return (text) => {
    const lower = text.toLowerCase();
    const out: string[] = [];
    for (const w of list) {
      for (let i = lower.indexOf(w); i >= 0; i = lower.indexOf(w, i + 1)) {
        if (edge(lower, i - 1) && edge(lower, i + w.length)) {
          out.push(w);
          break;
        }
      }
    }
    return out;
  };
}

function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
}
