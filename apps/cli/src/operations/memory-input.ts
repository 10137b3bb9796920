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
