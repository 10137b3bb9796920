/**
 * Changes to memory: add (with gates, near-duplicate merging and caps), feedback, access, prune.
 * Each function mutates the `MemoryData` it is given and returns what happened, so it can run
 * inside `openMemory(...).update(draft => ...)` where the store supplies a fresh locked copy.
 */
import { findNearDuplicate, SAME_INSIGHT, triggerSimilarity } from './dedup.js';
import { MemoryError } from './errors.js';
import { checkFailureGates, checkPatternGates, slugFromTrigger, type GateRefusal } from './gates.js';
import { dropDanglingEdges, findEntry } from './graph.js';
import { importance, PRUNE_BELOW } from './score.js';
import type { Entry, EntryKind, Failure, MemoryData, Pattern } from './types.js';

export const MAX_FAILURES = 500;
export const MAX_PATTERNS = 200;

export interface FailureInput {
  /** Derived from the trigger when absent. */
  name?: string | undefined;
  trigger: string;
  fix: string;
  match?: string | null | undefined;
  cost: number;
  source?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
}

export interface PatternInput {
  name?: string | undefined;
  trigger: string;
  insight: string;
  saved: number;
  source?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
}

export interface AddOptions {
  now: number;
  /** Override the caps (default 500 failures, 200 patterns). */
  maxFailures?: number;
  maxPatterns?: number;
}

export type AddResult =
  | { status: 'added'; kind: EntryKind; name: string; evicted: string[] }
  | { status: 'merged'; kind: EntryKind; name: string; similarity: number; evicted: string[] }
  | { status: 'refused'; kind: EntryKind; name: string | undefined; refusals: GateRefusal[] };

const sortedUnion = (a: readonly string[], b: readonly string[] | undefined): string[] => [...new Set([...a, ...(b ?? [])])].sort();

function cleanList(list: readonly string[] | undefined, what: string): string[] {
  const out: string[] = [];
  for (const item of list ?? []) {
    if (typeof item !== 'string' || item.trim() === '' || item.length > 500) throw new MemoryError('bad-input', `${what} entries must be non-empty strings of at most 500 characters`);
    out.push(item.trim());
  }
  return [...new Set(out)].sort();
}

function uniqueName(data: MemoryData, base: string): string {
  if (findEntry(data, base) === undefined) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base.slice(0, 110)}-${i}`;
    if (findEntry(data, candidate) === undefined) return candidate;
  }
}

function base(now: number, source: string[], tags: string[]): Omit<Entry, 'name' | 'trigger'> & { tags?: string[] } {
  const out = {
    source,
    access_count: 0,
    last_accessed: null,
    related: [],
    related_typed: {},
    times_helped: 0,
    times_failed: 0,
    created_at: new Date(now).toISOString(),
  };
  return tags.length > 0 ? { ...out, tags } : out;
}

/**
 * Add a failure. Refused (nothing changes) when a gate fails; merged into an existing failure with
 * the same name or a near-duplicate trigger (sources and tags unioned, cost raised to the larger,
 * fix and match kept unless the old ones were empty); otherwise added, evicting the least
 * important failures if the cap is exceeded (possibly the new one, reported in `evicted`).
 */
export function addFailure(data: MemoryData, input: FailureInput, options: AddOptions): AddResult {
  const refusals = checkFailureGates(input);
  if (refusals.length > 0) return { status: 'refused', kind: 'failure', name: input.name, refusals };
  const source = cleanList(input.source, 'source');
  const tags = cleanList(input.tags, 'tags');
  const sameName = input.name === undefined ? undefined : findEntry(data, input.name);
  if (sameName !== undefined && sameName.kind !== 'failure') throw new MemoryError('duplicate-name', `${JSON.stringify(input.name)} is already the name of a pattern`);
  const dup = sameName !== undefined ? { index: sameName.index, similarity: 1 } : findNearDuplicate(input.trigger, data.failures);
  if (dup !== undefined) {
    const old = data.failures[dup.index]!;
    old.source = sortedUnion(old.source, source);
    if (tags.length > 0 || old.tags !== undefined) old.tags = sortedUnion(old.tags ?? [], tags);
    old.cost = Math.max(old.cost, input.cost);
    if (old.fix.trim() === '') old.fix = input.fix;
    if (old.match === null && input.match != null) old.match = input.match;
    return { status: 'merged', kind: 'failure', name: old.name, similarity: dup.similarity, evicted: [] };
  }
  const name = uniqueName(data, input.name ?? slugFromTrigger(input.trigger));
  const entry: Failure = { name, trigger: input.trigger.trim(), fix: input.fix.trim(), match: input.match ?? null, cost: input.cost, ...base(options.now, source, tags) };
  data.failures.push(entry);
  const evicted = enforceCaps(data, options);
  return { status: 'added', kind: 'failure', name, evicted };
}

/**
 * Add a pattern: the same rules as addFailure, with `saved` in place of cost, except that a near
 * duplicate is the same situation AND the same lesson: a pattern whose trigger is near but whose
 * insight says something else is another pattern (merging kept the first insight and lost the rest).
 */
export function addPattern(data: MemoryData, input: PatternInput, options: AddOptions): AddResult {
  const refusals = checkPatternGates(input);
  if (refusals.length > 0) return { status: 'refused', kind: 'pattern', name: input.name, refusals };
  const source = cleanList(input.source, 'source');
  const tags = cleanList(input.tags, 'tags');
  const sameName = input.name === undefined ? undefined : findEntry(data, input.name);
  if (sameName !== undefined && sameName.kind !== 'pattern') throw new MemoryError('duplicate-name', `${JSON.stringify(input.name)} is already the name of a failure`);
  const sameLesson = (p: Pattern): boolean => p.insight.trim() === '' || triggerSimilarity(p.insight, input.insight) >= SAME_INSIGHT;
  const dup = sameName !== undefined ? { index: sameName.index, similarity: 1 } : findNearDuplicate(input.trigger, data.patterns, sameLesson);
  if (dup !== undefined) {
    const old = data.patterns[dup.index]!;
    old.source = sortedUnion(old.source, source);
    if (tags.length > 0 || old.tags !== undefined) old.tags = sortedUnion(old.tags ?? [], tags);
    old.saved = Math.max(old.saved, input.saved);
    if (old.insight.trim() === '') old.insight = input.insight;
    return { status: 'merged', kind: 'pattern', name: old.name, similarity: dup.similarity, evicted: [] };
  }
  const name = uniqueName(data, input.name ?? slugFromTrigger(input.trigger));
  const entry: Pattern = { name, trigger: input.trigger.trim(), insight: input.insight.trim(), saved: input.saved, ...base(options.now, source, tags) };
  data.patterns.push(entry);
  const evicted = enforceCaps(data, options);
  return { status: 'added', kind: 'pattern', name, evicted };
}

/** Evict the least important entries beyond the caps (ties: the older, then by name). Returns the evicted names. */
export function enforceCaps(data: MemoryData, options: { now: number; maxFailures?: number; maxPatterns?: number }): string[] {
  const evicted: string[] = [];
  const trim = <T extends Entry>(list: T[], cap: number): T[] => {
    if (list.length <= cap) return list;
    const ranked = list.map((entry) => ({ entry, importance: importance(entry, options.now) }));
    ranked.sort((a, b) => a.importance - b.importance || a.entry.created_at.localeCompare(b.entry.created_at) || a.entry.name.localeCompare(b.entry.name));
    const drop = new Set(ranked.slice(0, list.length - cap).map((r) => r.entry));
    for (const e of drop) evicted.push(e.name);
    return list.filter((e) => !drop.has(e));
  };
  data.failures = trim(data.failures, options.maxFailures ?? MAX_FAILURES);
  data.patterns = trim(data.patterns, options.maxPatterns ?? MAX_PATTERNS);
  if (evicted.length > 0) dropDanglingEdges(data);
  return evicted.sort();
}

export type Outcome = 'helped' | 'failed';

/** Record that an entry helped or failed when it was used: counts, access and last_accessed. */
export function feedback(data: MemoryData, name: string, outcome: Outcome, now: number): Entry {
  if (outcome !== 'helped' && outcome !== 'failed') throw new MemoryError('bad-input', `feedback must be "helped" or "failed", got ${JSON.stringify(outcome)}`);
  const hit = findEntry(data, name);
  if (hit === undefined) throw new MemoryError('not-found', `no memory entry named ${JSON.stringify(name)}`);
  if (outcome === 'helped') hit.entry.times_helped += 1;
  else hit.entry.times_failed += 1;
  hit.entry.access_count += 1;
  hit.entry.last_accessed = new Date(now).toISOString();
  return hit.entry;
}

/** Bump access_count and last_accessed of the named entries (what `query --record` does). Unknown names are ignored. */
export function recordAccess(data: MemoryData, names: readonly string[], now: number): void {
  const at = new Date(now).toISOString();
  for (const name of new Set(names)) {
    const hit = findEntry(data, name);
    if (hit === undefined) continue;
    hit.entry.access_count += 1;
    hit.entry.last_accessed = at;
  }
}

export interface PruneResult {
  removed: { kind: EntryKind; name: string; importance: number }[];
  kept: number;
}

/** Remove entries whose importance fell below `minImportance` (default 0.1), then enforce the caps. */
export function prune(data: MemoryData, options: { now: number; minImportance?: number; maxFailures?: number; maxPatterns?: number }): PruneResult {
  const min = options.minImportance ?? PRUNE_BELOW;
  const removed: PruneResult['removed'] = [];
  const keep = <T extends Entry>(list: T[], kind: EntryKind): T[] =>
    list.filter((entry) => {
      const value = importance(entry, options.now);
      if (value >= min) return true;
      removed.push({ kind, name: entry.name, importance: value });
      return false;
    });
  data.failures = keep(data.failures, 'failure');
  data.patterns = keep(data.patterns, 'pattern');
  const before = new Map<string, { kind: EntryKind; importance: number }>();
  for (const e of data.failures) before.set(e.name, { kind: 'failure', importance: importance(e, options.now) });
  for (const e of data.patterns) before.set(e.name, { kind: 'pattern', importance: importance(e, options.now) });
  for (const name of enforceCaps(data, options)) removed.push({ name, ...(before.get(name) ?? { kind: 'failure', importance: 0 }) });
  dropDanglingEdges(data);
  removed.sort((a, b) => a.name.localeCompare(b.name));
  return { removed, kept: data.failures.length + data.patterns.length };
}

export interface MemoryStats {
  failures: number;
  patterns: number;
  caps: { failures: number; patterns: number };
  edges: number;
  feedback: { helped: number; failed: number };
  /** Entries that would be pruned now. */
  prunable: number;
  oldest: string | undefined;
  newest: string | undefined;
  /** Most important entries, best first (at most 5). */
  top: { kind: EntryKind; name: string; importance: number }[];
  tags: Record<string, number>;
}

export function stats(data: MemoryData, now: number): MemoryStats {
  const all: { kind: EntryKind; entry: Entry }[] = [...data.failures.map((entry) => ({ kind: 'failure' as const, entry })), ...data.patterns.map((entry) => ({ kind: 'pattern' as const, entry }))];
  let edges = 0;
  let helped = 0;
  let failed = 0;
  let prunable = 0;
  const tags = new Map<string, number>();
  const ranked = all.map(({ kind, entry }) => {
    for (const list of Object.values(entry.related_typed)) edges += list?.length ?? 0;
    helped += entry.times_helped;
    failed += entry.times_failed;
    for (const t of entry.tags ?? []) tags.set(t, (tags.get(t) ?? 0) + 1);
    const value = importance(entry, now);
    if (value < PRUNE_BELOW) prunable++;
    return { kind, name: entry.name, importance: value };
  });
  ranked.sort((a, b) => b.importance - a.importance || a.name.localeCompare(b.name));
  const dates = all.map((a) => a.entry.created_at).sort();
  const tagRecord: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [k, v] of [...tags].sort(([a], [b]) => a.localeCompare(b))) tagRecord[k] = v;
  return {
    failures: data.failures.length,
    patterns: data.patterns.length,
    caps: { failures: MAX_FAILURES, patterns: MAX_PATTERNS },
    // Each link is stored at both ends.
    edges: edges / 2,
    feedback: { helped, failed },
    prunable,
    oldest: dates[0],
    newest: dates[dates.length - 1],
    top: ranked.slice(0, 5),
    tags: tagRecord,
  };
}
