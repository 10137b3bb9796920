/**
 * The inputs of the memory area's typed operations (src/operations/memory.ts), apart from the
 * operations so that their declarations import no library type.
 */

export interface MemoryQueryInput {
  /** What the agent is about to do, or the error it met. */
  topic: string;
  /** At most this many failures (0-1000, default 5). */
  failures?: number | undefined;
  /** At most this many patterns (0-1000, default 3). */
  patterns?: number | undefined;
  /** Minimum relevance, 0-1 (default 0.25). */
  threshold?: number | undefined;
  /** Only entries with every one of these tags. */
  tags?: string[] | undefined;
  /** `hybrid` (default: BM25 fused with the semantic score) or `bm25` alone. */
  retrieval?: 'hybrid' | 'bm25' | undefined;
  /** Count the returned entries as accessed (a write). */
  record?: boolean | undefined;
  /** The memory file, inside the project (default .ratchet/memory.json). */
  file?: string | undefined;
}

/** Where an entry was learned and how it is labelled: the fields both kinds of entry share. */
interface MemoryAddCommon {
  /** What it looks like (a failure) or when it applies (a pattern): at least 10 characters, specific. */
  trigger: string;
  /** A unique name (default: derived from the trigger). */
  name?: string | undefined;
  /** Where it was learned (campaign, workspace, person). */
  source?: string[] | undefined;
  /** Labels to filter queries by. */
  tags?: string[] | undefined;
  /** The memory file, inside the project (default .ratchet/memory.json). */
  file?: string | undefined;
}

export interface MemoryAddFailureInput extends MemoryAddCommon {
  /** How to avoid or repair it. */
  fix: string;
  /** What it cost (>= 0; the quality gate wants at least 100). */
  cost: number;
  /** A regular expression that makes this failure fully relevant to a topic it matches. */
  match?: string | undefined;
}

export interface MemoryAddPatternInput extends MemoryAddCommon {
  /** What worked. */
  insight: string;
  /** What applying it saves (>= 0; the quality gate wants at least 100). */
  saved: number;
}

export interface MemoryFeedbackInput {
  /** The entry. */
  name: string;
  outcome: 'helped' | 'failed';
  file?: string | undefined;
}

/** The typed edges between entries (their inverses are stored at the other end). */
export const MEMORY_EDGE_TYPES = ['co_occurs', 'causes', 'caused_by', 'solves', 'solved_by', 'prerequisite', 'requires', 'variant'] as const;
export type MemoryEdgeType = (typeof MEMORY_EDGE_TYPES)[number];

export interface MemoryLinkInput {
  from: string;
  to: string;
  type: MemoryEdgeType;
  file?: string | undefined;
}

export interface MemoryPruneInput {
  /** Prune below this importance (>= 0, default 0.1). */
  minImportance?: number | undefined;
  /** List what would be removed without writing. */
  dryRun?: boolean | undefined;
  file?: string | undefined;
}

export interface MemoryStatsInput {
  file?: string | undefined;
}

export interface MemoryObserveInput {
  /** An archived campaign id (default: the active campaign). */
  campaign?: string | undefined;
  /** Re-run a blocked workspace's verify command first. */
  verify?: boolean | undefined;
  /** Per verify command, 100-3600000 (default 60000). */
  timeoutMs?: number | undefined;
  /** The active campaign's workspace directory, inside the project (default .ratchet/workspace). */
  workspaceDir?: string | undefined;
  file?: string | undefined;
}
