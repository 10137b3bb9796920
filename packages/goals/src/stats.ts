/**
 * Per-type observability (seed 002, registry change process step 5: "Rollout: stage behind a feature
 * flag; monitor metrics per type"; "Observability: track creation/completion rates, overdue counts,
 * and error rates per action type"). Counts come from the audit trail (what happened in the window)
 * and the current state (what is open and overdue now). Pure: the clock is a parameter, and the
 * output is ordered (registry order, then unregistered type ids), so same state and clock, same bytes.
 */
import { isPending } from './assess.js';
import { CANCEL_STATUSES } from './ops.js';
import type { z } from 'zod';
import type { Registry } from './registry.js';
import type { ActionStatsSchema } from './schema.js';
import type { AuditEntry, Change, GoalsState } from './types.js';
import { ACTION_STATS_SCHEMA_URL } from './urls.js';

/** Terminal statuses that record a failure rather than an outcome (background_job's "failed"). */
export const FAILURE_STATUSES: ReadonlySet<string> = new Set(['failed', 'error', 'errored']);

/**
 * `ratchet actions stats --json` (JSON Schema: `@ratchet/goals/schemas/action-stats.schema.json`):
 * per-type figures over the window (`since`, when given; otherwise the whole kept history) and now.
 */
export type ActionStats = z.infer<typeof ActionStatsSchema>;
/** One type's row: its counts, and whether the registry in use has it (an unregistered id shows up through coerced actions). */
export type ActionTypeStats = ActionStats['types'][number];
/**
 * The figures of a type (or all): created, completed, cancelled, failed, escalated and coerced in the
 * window; open and overdue now; completion_rate and failure_rate (null when nothing to divide by).
 */
export type ActionTypeCounts = ActionStats['totals'];

export interface ActionStatsOptions {
  /** ms since the epoch: overdue is judged against it. */
  now: number;
  /** ms since the epoch: only audit entries at or after it count. */
  since?: number | undefined;
}

type Counter = Omit<ActionTypeCounts, 'completion_rate' | 'failure_rate'> & { cohort: number; cohortDone: number };

/** What a run of audit entries tells, per type. */
type RangeCounter = Pick<Counter, 'created' | 'completed' | 'cancelled' | 'failed' | 'escalated' | 'coerced'>;

const blank = (): Counter => ({ created: 0, completed: 0, cancelled: 0, failed: 0, escalated: 0, coerced: 0, open: 0, overdue: 0, cohort: 0, cohortDone: 0 });

/** How a terminal status closes an action, or undefined when the status is not terminal for its type. */
function outcome(registry: Registry, type: string, status: unknown): 'completed' | 'cancelled' | 'failed' | undefined {
  if (typeof status !== 'string' || registry.types.get(type)?.terminal.has(status) !== true) return undefined;
  if (CANCEL_STATUSES.has(status)) return 'cancelled';
  return FAILURE_STATUSES.has(status) ? 'failed' : 'completed';
}

const rate = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

/**
 * Versions that do not count: revert entries (a revert puts back an earlier state; it is not new
 * work) and the mutations whose effect a revert took away. A revert to r makes the state what it
 * was at r, so what counts after it is what counted at r: walking back from the newest entry, a
 * revert jumps to its target and everything it jumped over is undone. A revert that is itself
 * reverted is jumped over in turn, so what it had undone counts again.
 */
function undoneVersions(audit: readonly AuditEntry[]): Set<number> {
  const byVersion = new Map<number, AuditEntry>();
  for (const e of audit) byVersion.set(e.version, e);
  const live = new Set<number>();
  let v = audit.reduce((max, e) => Math.max(max, e.version), 0);
  // Each step moves strictly back (a revert targets an earlier version), so the walk ends.
  while (v > 0) {
    const e = byVersion.get(v);
    if (e === undefined) break;
    if (e.reverted_to !== undefined && e.reverted_to < v) {
      v = e.reverted_to;
      continue;
    }
    live.add(v);
    v--;
  }
  return new Set(audit.map((e) => e.version).filter((x) => !live.has(x)));
}

/** The figures per action type, from the audit trail (the window) and the state (open, overdue). */
export function actionStats(state: GoalsState, registry: Registry, options: ActionStatsOptions): ActionStats {
  const rows = new Map<string, Counter>();
  const row = (type: string): Counter => {
    let r = rows.get(type);
    if (r === undefined) rows.set(type, (r = blank()));
    return r;
  };
  for (const id of registry.types.keys()) row(id);
  const since = options.since;
  const undone = undoneVersions(state.audit);
  for (const entry of state.audit) {
    if (undone.has(entry.version) || (since !== undefined && Date.parse(entry.at) < since)) continue;
    for (const c of entry.changes) if (c.kind === 'action') countChange(registry, row, c);
  }
  // Compacted ranges count through the per-type counts their summaries kept (a range counts when it starts in the window).
  for (const summary of state.audit_summaries ?? []) {
    if (since !== undefined && Date.parse(summary.from_at) < since) continue;
    for (const [type, n] of Object.entries(summary.action_counts)) {
      const r = row(type);
      for (const k of ['created', 'completed', 'cancelled', 'failed', 'escalated', 'coerced'] as const) r[k] += n[k];
    }
  }
  const nowIso = new Date(options.now).toISOString();
  for (const a of state.actions) {
    if (!isPending(registry, a)) continue;
    const r = row(a.type);
    r.open++;
    if (a.due_at !== undefined && a.due_at < nowIso) r.overdue++;
  }
  // The completion cohort: the actions (as they are now) created in the window, whether or not their history was compacted.
  const sinceIso = since === undefined ? undefined : new Date(since).toISOString();
  for (const a of state.actions) {
    if (sinceIso !== undefined && a.created_at < sinceIso) continue;
    const r = row(a.type);
    r.cohort++;
    if (outcome(registry, a.type, a.status) === 'completed') r.cohortDone++;
  }
  const order = [...registry.types.keys(), ...[...rows.keys()].filter((t) => !registry.types.has(t)).sort()];
  const totals = blank();
  const types: ActionTypeStats[] = order.map((type) => {
    const r = rows.get(type)!;
    for (const k of ['created', 'completed', 'cancelled', 'failed', 'escalated', 'coerced', 'open', 'overdue', 'cohort', 'cohortDone'] as const) totals[k] += r[k];
    return finish({ type, registered: registry.types.has(type) }, r);
  });
  const out: ActionStats = { $schema: ACTION_STATS_SCHEMA_URL, generated_at: nowIso, version: state.version, types, totals: finish({}, totals) };
  if (since !== undefined) out.since = new Date(since).toISOString();
  return out;
}

function finish<T extends object>(head: T, r: Counter): T & ActionTypeCounts {
  const closed = r.completed + r.cancelled + r.failed;
  return {
    ...head,
    created: r.created,
    completed: r.completed,
    cancelled: r.cancelled,
    failed: r.failed,
    escalated: r.escalated,
    coerced: r.coerced,
    open: r.open,
    overdue: r.overdue,
    completion_rate: rate(r.cohortDone, r.cohort),
    failure_rate: rate(r.failed, closed),
  };
}

/** What one audited change of an action adds to the counts: a creation, a close, an escalation. */
export function countChange(registry: Registry, row: (type: string) => RangeCounter, c: Change): void {
  const after = c.after;
  const before = c.before;
  if (after === null) return;
  const type = String(after.type);
  if (before === null) {
    const r = row(type);
    r.created++;
    const requested = (after.metadata as Record<string, unknown> | undefined)?.requested_type;
    if (typeof requested === 'string') row(requested).coerced++;
    // Created and closed in one mutation (a turn commit that adds an action and completes it).
    const closed = typeof after.status === 'string' && FAILURE_STATUSES.has(after.status) ? 'failed' : outcome(registry, type, after.status);
    if (closed !== undefined) r[closed]++;
  } else if (before.status !== after.status) {
    // A failure status counts when reached, terminal or not (a failed job may be retried).
    if (typeof after.status === 'string' && FAILURE_STATUSES.has(after.status)) row(type).failed++;
    else {
      const closed = outcome(registry, type, after.status);
      if (closed !== undefined && outcome(registry, String(before.type), before.status) === undefined) row(type)[closed]++;
    }
  }
  if (after.escalated_at !== undefined && (before === null || before.escalated_at === undefined)) row(type).escalated++;
}

/** The per-type counts of a run of audit entries (what a compaction summary keeps of them). */
export function countEntries(registry: Registry, entries: readonly AuditEntry[]): Record<string, { created: number; completed: number; cancelled: number; failed: number; escalated: number; coerced: number }> {
  const rows = new Map<string, RangeCounter>();
  const row = (type: string): RangeCounter => {
    let r = rows.get(type);
    if (r === undefined) rows.set(type, (r = { created: 0, completed: 0, cancelled: 0, failed: 0, escalated: 0, coerced: 0 }));
    return r;
  };
  const undone = undoneVersions(entries);
  for (const e of entries) if (!undone.has(e.version)) for (const c of e.changes) if (c.kind === 'action') countChange(registry, row, c);
  const out: Record<string, { created: number; completed: number; cancelled: number; failed: number; escalated: number; coerced: number }> = {};
  for (const type of [...rows.keys()].sort()) {
    out[type] = rows.get(type)!;
  }
  return out;
}
