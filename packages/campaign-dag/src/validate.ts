/**
 * Hand-written validators with zod's `safeParse` shape, for @ratchet/store on the hot path (`ready
 * --claim` runs many times per turn; loading zod would cost ~100 ms). They accept exactly what the
 * zod schemas in src/schema.ts accept; test/schema.test.ts checks both on valid and broken samples.
 */
import type { SafeParseResult, Schema, SchemaIssue } from '@ratchet/store';
import { checkGraph, seqLookup, type GraphTask } from './graph.js';
import { formatSeq, MAX_SEQ } from './seq.js';
import { CAMPAIGN_PHASES, PHASE_EVENTS } from './phase.js';
import { CAMPAIGN_STATUSES, SLUG_PATTERN, TASK_STATUSES, TASK_TYPES, type Campaign, type LostClaim, type Task } from './types.js';

type Issues = SchemaIssue[];
type Path = (string | number)[];

const MAX_ISSUES = 100;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkKeys(o: Record<string, unknown>, allowed: ReadonlySet<string>, path: Path, issues: Issues): void {
  const extra = Object.keys(o).filter((k) => !allowed.has(k));
  if (extra.length > 0) issues.push({ path, message: `Unrecognized key${extra.length > 1 ? 's' : ''}: ${extra.map((k) => `"${k}"`).join(', ')}`, code: 'unrecognized_keys', keys: extra } as SchemaIssue);
}

function need(ok: boolean, path: Path, message: string, issues: Issues): boolean {
  if (!ok) issues.push({ path, message, code: 'invalid_type' });
  return ok;
}

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= MAX_SEQ;
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isSeqList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isSeq);

/**
 * Every key of `T`, each exactly once: a field added to the schema (types.ts derives the type from
 * it) fails to compile here until this validator knows it too.
 */
const keysOf = <T>(keys: Record<keyof T, true>): ReadonlySet<string> => new Set(Object.keys(keys));

const TASK_KEYS = keysOf<Task>({
  seq: true,
  slug: true,
  type: true,
  description: true,
  delta: true,
  verify: true,
  budget: true,
  preflight: true,
  depends: true,
  status: true,
  runner: true,
  reason: true,
  blockedBy: true,
  rootCause: true,
  cascade: true,
  updatedAt: true,
  round: true,
  claimItem: true,
  lostAttempts: true,
});
const LOST_CLAIM_KEYS = keysOf<LostClaim>({ runner: true, attempt: true, leaseUntil: true, recoveredAt: true });
const CAMPAIGN_KEYS = new Set(['id', 'objective', 'framework', 'idioms', 'createdAt', 'status', 'tasks', 'phase', 'phaseLog']);
const PHASE_EVENT_KEYS = new Set(['event', 'from', 'to', 'at', 'reason']);
const PHASE_EVENT_NAMES: readonly unknown[] = [...PHASE_EVENTS, 'inferred'];

function checkPhaseLog(log: unknown, path: Path, issues: Issues): void {
  if (!need(Array.isArray(log), path, 'expected a list of phase events', issues)) return;
  (log as unknown[]).forEach((e, i) => {
    const at = [...path, i];
    if (!need(isObject(e), at, 'expected object', issues)) return;
    const o = e as Record<string, unknown>;
    checkKeys(o, PHASE_EVENT_KEYS, at, issues);
    need(PHASE_EVENT_NAMES.includes(o.event), [...at, 'event'], `expected one of ${PHASE_EVENT_NAMES.map((n) => `"${String(n)}"`).join('|')}`, issues);
    need(o.from === null || (CAMPAIGN_PHASES as readonly unknown[]).includes(o.from), [...at, 'from'], 'expected a phase or null', issues);
    need((CAMPAIGN_PHASES as readonly unknown[]).includes(o.to), [...at, 'to'], 'expected a phase', issues);
    need(isString(o.at), [...at, 'at'], 'expected string', issues);
    if (o.reason !== undefined) need(isString(o.reason), [...at, 'reason'], 'expected string', issues);
  });
}

function checkTask(t: unknown, path: Path, issues: Issues): void {
  if (!need(isObject(t), path, 'expected object', issues)) return;
  const o = t as Record<string, unknown>;
  checkKeys(o, TASK_KEYS, path, issues);
  need(isSeq(o.seq), [...path, 'seq'], `expected an integer from 0 to ${MAX_SEQ}`, issues);
  // The slug names the workspace file: a hand-edited "../../x" must not reach a path.
  need(isString(o.slug) && SLUG_PATTERN.test(o.slug), [...path, 'slug'], 'expected a slug: 1-64 letters, digits, ".", "_" or "-", not starting with "."', issues);
  need((TASK_TYPES as readonly unknown[]).includes(o.type), [...path, 'type'], 'expected one of "SPEC"|"BUILD"|"VERIFY"', issues);
  need(isStringList(o.delta), [...path, 'delta'], 'expected a list of strings', issues);
  need(isString(o.verify), [...path, 'verify'], 'expected string', issues);
  need(isSeqList(o.depends), [...path, 'depends'], 'expected a list of seqs', issues);
  need((TASK_STATUSES as readonly unknown[]).includes(o.status), [...path, 'status'], 'expected one of "pending"|"in_progress"|"complete"|"blocked"', issues);
  if (o.description !== undefined) need(isString(o.description), [...path, 'description'], 'expected string', issues);
  if (o.budget !== undefined) need(typeof o.budget === 'number' && Number.isFinite(o.budget) && o.budget >= 0, [...path, 'budget'], 'expected a non-negative number', issues);
  if (o.preflight !== undefined) need(isStringList(o.preflight), [...path, 'preflight'], 'expected a list of strings', issues);
  for (const k of ['runner', 'reason', 'updatedAt'] as const) if (o[k] !== undefined) need(isString(o[k]), [...path, k], 'expected string', issues);
  if (o.blockedBy !== undefined) need(isSeqList(o.blockedBy), [...path, 'blockedBy'], 'expected a list of seqs', issues);
  if (o.rootCause !== undefined) need(isSeq(o.rootCause), [...path, 'rootCause'], 'expected a non-negative integer', issues);
  if (o.cascade !== undefined) need(typeof o.cascade === 'boolean', [...path, 'cascade'], 'expected boolean', issues);
  if (o.round !== undefined) need(isSeq(o.round), [...path, 'round'], 'expected a non-negative integer', issues);
  if (o.claimItem !== undefined) need(isString(o.claimItem), [...path, 'claimItem'], 'expected string', issues);
  if (o.lostAttempts !== undefined) checkLostAttempts(o.lostAttempts, [...path, 'lostAttempts'], issues);
}

function checkLostAttempts(list: unknown, path: Path, issues: Issues): void {
  if (!need(Array.isArray(list), path, 'expected a list of lost attempts', issues)) return;
  (list as unknown[]).forEach((e, i) => {
    const at = [...path, i];
    if (!need(isObject(e), at, 'expected object', issues)) return;
    const o = e as Record<string, unknown>;
    checkKeys(o, LOST_CLAIM_KEYS, at, issues);
    need(typeof o.attempt === 'number' && Number.isSafeInteger(o.attempt) && o.attempt >= 1, [...at, 'attempt'], 'expected a positive integer', issues);
    for (const k of ['runner', 'leaseUntil', 'recoveredAt'] as const) need(isString(o[k]), [...at, k], 'expected string', issues);
  });
}

/** The campaign document (without the store's envelope). */
export const campaignValidator: Schema<Campaign> = {
  safeParse(input: unknown): SafeParseResult<Campaign> {
    const issues: Issues = [];
    if (!isObject(input)) return { success: false, error: { issues: [{ path: [], message: 'expected object', code: 'invalid_type' }] } };
    checkKeys(input, CAMPAIGN_KEYS, [], issues);
    need(isString(input.id) && input.id.length > 0, ['id'], 'expected a non-empty string', issues);
    need(isString(input.objective), ['objective'], 'expected string', issues);
    need(input.framework === null || isString(input.framework), ['framework'], 'expected string or null', issues);
    if (need(isObject(input.idioms), ['idioms'], 'expected object', issues)) {
      const idioms = input.idioms as Record<string, unknown>;
      checkKeys(idioms, new Set(['required', 'forbidden']), ['idioms'], issues);
      need(isStringList(idioms.required), ['idioms', 'required'], 'expected a list of strings', issues);
      need(isStringList(idioms.forbidden), ['idioms', 'forbidden'], 'expected a list of strings', issues);
    }
    need(isString(input.createdAt), ['createdAt'], 'expected string', issues);
    need((CAMPAIGN_STATUSES as readonly unknown[]).includes(input.status), ['status'], 'expected one of "active"|"complete"', issues);
    if (input.phase !== undefined) need((CAMPAIGN_PHASES as readonly unknown[]).includes(input.phase), ['phase'], `expected one of ${CAMPAIGN_PHASES.map((p) => `"${p}"`).join('|')}`, issues);
    if (input.phaseLog !== undefined) checkPhaseLog(input.phaseLog, ['phaseLog'], issues);
    if (need(Array.isArray(input.tasks), ['tasks'], 'expected array', issues)) {
      const tasks = input.tasks as unknown[];
      for (let i = 0; i < tasks.length && issues.length < MAX_ISSUES; i++) checkTask(tasks[i], ['tasks', i], issues);
      // The graph is only checked once every task reads (a malformed seq would show up as an unknown dependency).
      if (issues.length === 0) issues.push(...graphIssues(tasks as GraphTask[]).slice(0, MAX_ISSUES));
    }
    return issues.length === 0 ? { success: true, data: input as unknown as Campaign } : { success: false, error: { issues } };
  },
};

/**
 * What makes a structurally valid task list not a DAG (a hand-edited campaign.json): duplicate seqs,
 * self, unknown and duplicate dependencies, and every cycle. Such tasks would silently never become
 * ready, so reading the file refuses them, each at its JSON pointer. The zod schema refines with the
 * same function.
 */
export function graphIssues(tasks: readonly GraphTask[]): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (let i = 0; i < tasks.length; i++) {
    const deps = tasks[i]!.depends;
    // Sorted and unique is what every writer produces: one neighbour comparison per dependency.
    let sorted = true;
    for (let at = 1; sorted && at < deps.length; at++) if (deps[at]! <= deps[at - 1]!) sorted = false;
    if (sorted) continue;
    const seen = new Set<number>();
    for (let at = 0; at < deps.length; at++) {
      if (seen.has(deps[at]!)) issues.push({ path: ['tasks', i, 'depends', at], message: `task ${formatSeq(tasks[i]!.seq)} lists dependency ${formatSeq(deps[at]!)} twice`, code: 'duplicate-dependency' });
      seen.add(deps[at]!);
    }
  }
  // The common shape (every task after the tasks it depends on, as plans are usually written and
  // add-tasks appends them) is a DAG by construction: one pass over a seq table proves it, and the
  // full check (graph build, Kahn, cycle walk: ~20x the cost, on every read) is only for the rest.
  if (issues.length === 0 && dependsOnEarlierOnly(tasks)) return issues;
  for (const p of checkGraph(tasks)) {
    switch (p.rule) {
      case 'duplicate-seq':
        issues.push({ path: ['tasks', p.index, 'seq'], message: `seq ${formatSeq(p.seq)} is used by more than one task (first at /tasks/${p.first})`, code: p.rule });
        break;
      case 'self-dependency':
        issues.push({ path: ['tasks', p.index, 'depends', p.at], message: `task ${formatSeq(p.seq)} depends on itself, so it can never become ready`, code: p.rule });
        break;
      case 'unknown-dependency':
        issues.push({ path: ['tasks', p.index, 'depends', p.at], message: `task ${formatSeq(p.seq)} depends on ${formatSeq(p.dependency)}, which is not a task of the campaign, so it can never become ready`, code: p.rule });
        break;
      case 'cycle': {
        // Point at the dependency that closes the cycle from its first task to the next one.
        const [i, next] = p.indexes as [number, number];
        const at = tasks[i]!.depends.indexOf(tasks[next]!.seq);
        issues.push({ path: at < 0 ? ['tasks', i, 'depends'] : ['tasks', i, 'depends', at], message: `dependency cycle: ${p.cycle.map(formatSeq).join(' -> ')} (each depends on the next); none of these tasks can ever become ready`, code: p.rule });
        break;
      }
    }
  }
  // In file order: by task, then by place inside it (stable, so one place keeps its rule order).
  const at = (i: SchemaIssue): number => (typeof i.path[3] === 'number' ? i.path[3] : -1);
  return issues.sort((a, b) => (a.path[1] as number) - (b.path[1] as number) || at(a) - at(b));
}

/** True when seqs are unique and every dependency names a task earlier in the list (so: no cycle, no unknown or self dependency). */
function dependsOnEarlierOnly(tasks: readonly GraphTask[]): boolean {
  const lookup = seqLookup(tasks);
  const table = lookup.table;
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i]!;
    if (lookup.get(t.seq) !== i) return false;
    const deps = t.depends;
    for (let k = 0; k < deps.length; k++) {
      const d = deps[k]!;
      const j = table !== undefined ? (d < table.length ? table[d]! : -1) : lookup.get(d);
      if (j < 0 || j >= i) return false;
    }
  }
  return true;
}
