/**
 * @ratchet/memory: failure and pattern memory for agents. Quality gates, near-duplicate merging,
 * BM25 relevance (or your embedder) times cost, help ratio and age decay, explain, typed relations,
 * prune, stats, and learning from finished workspaces. memory.json goes through @ratchet/store.
 * This entry never loads zod; the zod schema is at `@ratchet/memory/schema`.
 */
export type { Clock, EdgeType, Entry, EntryKind, Failure, MemoryData, Pattern, TypedEdges } from './types.js';
export { MemoryError, type MemoryErrorCode } from './errors.js';
export { tokenize, stem, normalizeText } from './tokenize.js';
export { Bm25Index, BM25_B, BM25_K1, type TermContribution } from './bm25.js';
export { SemanticIndex, CONCEPT_CREDIT, NGRAM_CREDIT, type SemanticMatch } from './semantic.js';
export { CONCEPTS } from './concepts.js';
export { fuse, rankOf, SEMANTIC_WEIGHT } from './fusion.js';
export {
  cachedEmbedder,
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_CACHE_SIZE,
  loadTransformersEmbedder,
  TRANSFORMERS_PACKAGE,
  type EmbeddingTensor,
  type FeatureExtractor,
  type PipelineFactory,
  type TransformersEmbedderOptions,
  type TransformersModule,
} from './embedder.js';
// The guard lives in @ratchet/store (plan-lint's dialects use it too); memory keeps exporting it.
export { checkRegex, MATCH_MAX_LENGTH, MATCH_SUBJECT_LIMIT, type RegexVerdict } from '@ratchet/store';
export { checkFailureGates, checkPatternGates, isGenericTrigger, MIN_TRIGGER_LENGTH, MIN_VALUE, NAME_PATTERN, type GateId, type GateRefusal } from './gates.js';
export { findNearDuplicate, triggerSimilarity, DUPLICATE_DICE, DUPLICATE_JACCARD, RELATED_SIMILARITY, SAME_INSIGHT } from './dedup.js';
export { ageDays, decay, DEFAULT_THRESHOLD, entryValue, HALF_LIFE_DAYS, helpRatio, importance, PRUNE_BELOW, tierOf, TIERS, valueFactor, type Tier } from './score.js';
export {
  cosine,
  entryText,
  explainQuery,
  MemoryIndex,
  queryMemory,
  type Embedder,
  type Explanation,
  type QueryHit,
  type QueryOptions,
  type QueryResult,
  type Retrieval,
  type RetrievalSignals,
  type SignalRank,
  type Signals,
  type SkippedEntry,
} from './query.js';
export { dropDanglingEdges, EDGE_INVERSE, EDGE_TYPES, EDGE_WEIGHTS, findEntry, isEdgeType, link, related, type RelatedEntry, type RelatedOptions, type RelatedStep } from './graph.js';
export {
  addFailure,
  addPattern,
  enforceCaps,
  feedback,
  MAX_FAILURES,
  MAX_PATTERNS,
  prune,
  recordAccess,
  stats,
  type AddOptions,
  type AddResult,
  type FailureInput,
  type MemoryStats,
  type Outcome,
  type PatternInput,
  type PruneResult,
} from './mutate.js';
export {
  applyObservation,
  blockReason,
  MAX_OBSERVED,
  observe,
  PATTERN_MIN_SCORE,
  workspaceId,
  type FailureCandidate,
  type FeedbackCandidate,
  type Observation,
  type ObservationApplied,
  type ObserveOptions,
  type PatternCandidate,
  type UtilizationRecord,
  type Verdict,
  type WorkspaceRecord,
} from './observe.js';
export { runVerifyCommand, type VerifyOutcome, type VerifyRunner, type VerifyRunOptions } from './verify.js';
export { checkMemoryData, memoryDataSchema } from './validate.js';
export { DEFAULT_MEMORY_PATH, MEMORY_SCHEMA_URL, MEMORY_SCHEMA_VERSION, memoryDocument, openMemory, type MemoryStoreOptions } from './file.js';
export { importFtlMemory, type FtlImportResult } from './ftl.js';
