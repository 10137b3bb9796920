/**
 * Summarization and compaction of the audit trail (seed 002: "compact old action logs into summaries
 * while preserving key evidence pointers"; "periodic goal summaries ... for major milestones";
 * "archive deprecated questions/stories with lineage"). The audit trail lives in the state file, so
 * it grows with every mutation; compaction replaces its oldest entries by one summary, so the file
 * stays bounded while the history stays queryable:
 * - what happened: entries per op and per actor, entities changed per kind, per-type action counts
 *   (`actionStats` keeps counting them);
 * - the evidence pointers added in the range (capped), goal milestones (a quarter of progress crossed,
 *   a status reached) and archived questions, stories and Scratch Page items with their lineage;
 * - a revert point: the before-image of every entity the range changed, at its first change, so
 *   `revert(from_version - 1)` still works. Images are per entity, not per mutation: 100,000 updates of
 *   1,000 actions keep 1,000 images. Only the newest `revertPoints` summaries keep theirs.
 * Compaction changes no entity and makes no version: it rewrites history, so only the user runs it.
 */
import { OwnerError } from './errors.js';
import { countEntries } from './stats.js';
import type { Actor, ArchivedItem, AuditEntry, AuditSummary, EntityKind, GoalMilestone, GoalsState } from './types.js';
import type { Registry } from './registry.js';

/** Evidence pointers a summary keeps at most (the rest are counted in `evidence_dropped`). */
export const SUMMARY_EVIDENCE_MAX = 2000;
/** Milestones a summary keeps at most (the newest, per goal the last ones count most). */
export const SUMMARY_MILESTONES_MAX = 1000;
/** Default: audit entries kept as they are (the newest). */
export const COMPACT_KEEP_DEFAULT = 1000;
/** Default: summaries that keep their revert point (the newest). */
export const REVERT_POINTS_DEFAULT = 5;

export interface CompactOptions {
  /** Keep at least this many of the newest audit entries as they are (default COMPACT_KEEP_DEFAULT). */
  keep?: number | undefined;
  /** Compact only entries written before this time (ms since the epoch). */
  before?: number | undefined;
  /** Only the newest this many summaries keep their before-images (their revert point); default REVERT_POINTS_DEFAULT. */
  revertPoints?: number | undefined;
  /** Judges whether the agent could revert across the range (the same rules `revert` applies). */
  agentRevertRefusal?: ((entries: readonly AuditEntry[]) => string | undefined) | undefined;
}

export interface CompactResult {
  /** The summary written, if anything was compacted. */
  summary?: AuditSummary | undefined;
  compacted: number;
  kept: number;
  /** Versions a revert can go back to: the summaries' revert points, and every version from the oldest kept entry's. */
  revert_points: number[];
  /** The oldest version reachable entry by entry (all later ones are revert points too). */
  audit_base: number;
}

/** The version the kept audit trail starts after (0 when nothing was compacted). */
export function auditBase(state: GoalsState): number {
  const s = state.audit_summaries;
  return s === undefined || s.length === 0 ? 0 : s[s.length - 1]!.to_version;
}

/** Versions reachable by revert: each summary's kept revert point, then every version from the audit base on. */
export function revertPoints(state: GoalsState): { points: number[]; base: number } {
  const points = (state.audit_summaries ?? []).flatMap((s) => (s.revert_point === undefined ? [] : [s.revert_point]));
  return { points, base: auditBase(state) };
}

const QUARTERS = [0.25, 0.5, 0.75, 1];

function refsOf(image: Record<string, unknown> | null): string[] {
  const refs = image?.evidence_refs;
  return Array.isArray(refs) ? refs.filter((r): r is string => typeof r === 'string') : [];
}

/** Summarize a run of audit entries (oldest first). Pure; the before-images are copies. */
export function summarize(entries: readonly AuditEntry[], registry: Registry, meta: { now: string; by: string; agentRevertRefusal?: CompactOptions['agentRevertRefusal'] }): AuditSummary {
  const first = entries[0]!;
  const last = entries[entries.length - 1]!;
  const ops: Record<string, number> = {};
  const who: Record<string, number> = {};
  const touched = new Map<string, { kind: EntityKind; id: string; image: Record<string, unknown> | null }>();
  const evidence = new Set<string>();
  let dropped = 0;
  const milestones: GoalMilestone[] = [];
  const archived: ArchivedItem[] = [];
  let mergeVersion: number | undefined;
  for (const e of entries) {
    ops[e.op] = (ops[e.op] ?? 0) + 1;
    who[e.who] = (who[e.who] ?? 0) + 1;
    for (const c of e.changes) {
      const key = `${c.kind}\u0000${c.id}`;
      if (!touched.has(key)) touched.set(key, { kind: c.kind, id: c.id, image: c.before === null ? null : structuredClone(c.before) });
      const had = new Set(refsOf(c.before));
      for (const r of refsOf(c.after)) {
        if (had.has(r) || evidence.has(r)) continue;
        if (evidence.size < SUMMARY_EVIDENCE_MAX) evidence.add(r);
        else dropped++;
      }
      const before = c.before ?? {};
      const after = c.after;
      if (after === null) continue;
      if (c.kind === 'goal') {
        const p0 = typeof before.progress === 'number' ? before.progress : 0;
        const p1 = typeof after.progress === 'number' ? after.progress : 0;
        const crossed = QUARTERS.some((q) => p0 < q && p1 >= q);
        if (crossed || (c.before !== null && before.status !== after.status)) {
          milestones.push({ goal_id: c.id, version: e.version, at: e.at, title: String(after.title), status: String(after.status), progress: p1, evidence_refs: refsOf(after).slice(-20) });
        }
      }
      if ((c.kind === 'question' || c.kind === 'story' || c.kind === 'observation') && after.status === 'archived' && before.status !== 'archived') {
        const item: ArchivedItem = { kind: c.kind, id: c.id, version: e.version, at: e.at };
        if (typeof after.goal_id === 'string') item.goal_id = after.goal_id;
        if (typeof after.question_id === 'string') item.question_id = after.question_id;
        const promoted = after.promoted_to as ArchivedItem['promoted_to'];
        if (promoted !== undefined) item.promoted_to = promoted;
        archived.push(item);
      }
      if (c.kind === 'proposal' && after.status === 'merged' && before.status !== 'merged') mergeVersion = e.version;
    }
  }
  const changed: Record<string, number> = {};
  for (const t of touched.values()) changed[t.kind] = (changed[t.kind] ?? 0) + 1;
  const summary: AuditSummary = {
    from_version: first.version,
    to_version: last.version,
    from_at: first.at,
    to_at: last.at,
    entries: entries.length,
    ops,
    who,
    changed,
    evidence_refs: [...evidence],
    action_counts: countEntries(registry, entries),
    milestones: milestones.slice(-SUMMARY_MILESTONES_MAX),
    archived,
    revert_point: first.previous_version,
    base: [...touched.values()],
    compacted_at: meta.now,
    compacted_by: meta.by,
  };
  if (dropped > 0) summary.evidence_dropped = dropped;
  if (mergeVersion !== undefined) summary.merge_version = mergeVersion;
  const refusal = meta.agentRevertRefusal?.(entries);
  if (refusal !== undefined) summary.agent_revert_refused = refusal;
  return summary;
}

/**
 * Compact the oldest audit entries of `state` (a draft, changed in place) into one summary: every
 * entry but the newest `keep`, and with `before`, only those written before it. Older summaries past
 * `revertPoints` drop their before-images (their revert point lapses). Only the user compacts.
 */
export function compactAudit(state: GoalsState, registry: Registry, actor: Actor, now: string, options: CompactOptions = {}): CompactResult {
  if (actor.role !== 'user') throw new OwnerError('only the user compacts the audit trail: it rewrites the history every agent reverts through');
  return compactHistory(state, registry, actor.name ?? actor.role, now, options);
}

/**
 * The compaction itself, with no owner check: for the store's automatic compaction, which runs on
 * any writer's write once the trail passes its threshold and keeps the same entries and revert
 * points a person's `goals compact` with the defaults would.
 */
export function compactHistory(state: GoalsState, registry: Registry, by: string, now: string, options: CompactOptions = {}): CompactResult {
  const keep = options.keep ?? COMPACT_KEEP_DEFAULT;
  const points = options.revertPoints ?? REVERT_POINTS_DEFAULT;
  let n = Math.max(0, state.audit.length - keep);
  if (options.before !== undefined) {
    const limit = options.before;
    const within = state.audit.findIndex((e) => Date.parse(e.at) >= limit);
    if (within !== -1) n = Math.min(n, within);
  }
  let summary: AuditSummary | undefined;
  if (n > 0) {
    summary = summarize(state.audit.slice(0, n), registry, { now, by, agentRevertRefusal: options.agentRevertRefusal });
    state.audit.splice(0, n);
    (state.audit_summaries ??= []).push(summary);
  }
  const summaries = state.audit_summaries ?? [];
  summaries.forEach((s, i) => {
    if (i < summaries.length - points) {
      delete s.base;
      delete s.revert_point;
    }
  });
  const { points: kept, base } = revertPoints(state);
  return { summary, compacted: n, kept: state.audit.length, revert_points: kept, audit_base: base };
}
