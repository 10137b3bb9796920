/**
 * The data in memory.json, with FTL's field names (snake_case) so FTL files read without a
 * rename. Plain JSON: no Dates, no classes, so the store can validate and write it as is.
 *
 * The types are derived from the format's zod schema (schema.ts, the one source of the format: it
 * also generates schemas/memory.schema.json and documents each field). `import type` only: the main
 * entry validates with the hand-written `checkMemoryData` (validate.ts) and never loads zod.
 */
import type { z } from 'zod';
import type { EdgeTypeSchema, FailureSchema, MemoryDataSchema, PatternSchema, TypedEdgesSchema } from './schema.js';

/** Typed relation between two entries. Each type has a weight and an inverse (see graph.ts). */
export type EdgeType = z.infer<typeof EdgeTypeSchema>;

/** `related_typed`: edge type -> names of the entries at the other end (sorted, unique). */
export type TypedEdges = z.infer<typeof TypedEdgesSchema>;

/**
 * A failure: what went wrong (`trigger`, an error message or symptom, at least 10 characters) and
 * how to avoid or fix it (`fix`). `name` is unique across failures and patterns
 * ([A-Za-z0-9][A-Za-z0-9._:-]{0,119}); `match` is an optional regular expression tested against a
 * query's topic (a hit makes the entry fully relevant), checked by @ratchet/store's checkRegex so
 * unsafe patterns are refused (see README); `cost` is what the failure cost when it happened (FTL:
 * budget x 1000, at least 100). `related` is the union of `related_typed`, kept for FTL readers;
 * `last_accessed` is null until retrieved with --record or given feedback.
 */
export type Failure = z.infer<typeof FailureSchema>;

/**
 * A pattern: what worked (`insight`) and what applying it saves (`saved`; FTL: budget x 500, at
 * least 100). The other fields are a failure's (see {@link Failure}).
 */
export type Pattern = z.infer<typeof PatternSchema>;

export type EntryKind = 'failure' | 'pattern';
export type Entry = Failure | Pattern;

/**
 * The data of memory.json (the file without the store's envelope). `observed`: workspaces
 * (`campaign/001_slug`) whose `<memory_utilization>` has already become feedback, oldest first, so
 * observing a campaign again does not count the same report twice. Not in FTL's files.
 */
export type MemoryData = z.infer<typeof MemoryDataSchema>;

/** A clock: milliseconds since the epoch. The core never reads Date.now itself. */
export type Clock = () => number;
