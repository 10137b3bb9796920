/**
 * The data in memory.json, with FTL's field names (snake_case) so FTL files read without a
 * rename. Plain JSON: no Dates, no classes, so the store can validate and write it as is.
 */

/** Typed relation between two entries. Each type has a weight and an inverse (see graph.ts). */
export type EdgeType =
  | 'co_occurs'
  | 'causes'
  | 'caused_by'
  | 'solves'
  | 'solved_by'
  | 'prerequisite'
  | 'requires'
  | 'variant';

/** `related_typed`: edge type -> names of the entries at the other end (sorted, unique). */
export type TypedEdges = Partial<Record<EdgeType, string[]>>;

interface EntryBase {
  /** Unique across failures and patterns: [A-Za-z0-9][A-Za-z0-9._:-]{0,119}. */
  name: string;
  /** What the situation looks like (an error message, a symptom). At least 10 characters. */
  trigger: string;
  /** Campaigns, workspaces or people this was learned from (sorted, unique). */
  source: string[];
  access_count: number;
  /** ISO 8601, or null if never retrieved with --record or given feedback. */
  last_accessed: string | null;
  /** Names of related entries, any type (the union of related_typed, kept for FTL readers). */
  related: string[];
  related_typed: TypedEdges;
  times_helped: number;
  times_failed: number;
  /** ISO 8601. */
  created_at: string;
  tags?: string[];
}

export interface Failure extends EntryBase {
  /** How to avoid or fix it. */
  fix: string;
  /**
   * Optional regular expression tested against a query's topic: a hit makes the entry fully
   * relevant. Checked by @ratchet/store's checkRegex; unsafe patterns are refused (see README).
   */
  match: string | null;
  /** What the failure cost when it happened (FTL: budget x 1000). At least 100. */
  cost: number;
}

export interface Pattern extends EntryBase {
  /** What worked. */
  insight: string;
  /** What applying it saves (FTL: budget x 500). At least 100. */
  saved: number;
}

export type EntryKind = 'failure' | 'pattern';
export type Entry = Failure | Pattern;

export interface MemoryData {
  failures: Failure[];
  patterns: Pattern[];
  /**
   * Workspaces (`campaign/001_slug`) whose `<memory_utilization>` has already become feedback, oldest
   * first: observing a campaign again must not count the same report twice. Not in FTL's files.
   */
  observed?: string[];
}

/** A clock: milliseconds since the epoch. The core never reads Date.now itself. */
export type Clock = () => number;
