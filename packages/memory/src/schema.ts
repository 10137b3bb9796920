/**
 * The zod schema of memory.json: the one source of truth for the format. `scripts/generate.ts`
 * turns it into schemas/memory.schema.json; the runtime validator (validate.ts) is hand-written
 * to keep zod off the CLI's hot path, and a test checks the two agree. Import through
 * `@ratchet/memory/schema` only: the main entry never loads zod.
 */
import { z } from 'zod';
import { MEMORY_SCHEMA_URL } from './file.js';
import { NAME_PATTERN } from './gates.js';
import { EDGE_TYPES } from './graph.js';

interface Meta {
  id?: string;
  title?: string;
  description?: string;
}
/** A private registry (the global one would throw when source and dist are both loaded). */
export const memorySchemaRegistry = z.registry<Meta>();
const d = <T extends z.ZodType>(schema: T, description: string): T => {
  memorySchemaRegistry.add(schema, { description });
  return schema;
};

const count = (what: string) => d(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), what);
const isoDate = (what: string) => d(z.iso.datetime({ offset: true, local: false }), what);
const names = (what: string) => d(z.array(z.string()), what);

/** A typed relation between two entries; each type has a weight and an inverse (graph.ts). */
export const EdgeTypeSchema = z.enum(EDGE_TYPES);
/** `related_typed`: relation type -> names of the entries at the other end (sorted, unique). */
export const TypedEdgesSchema = z.partialRecord(EdgeTypeSchema, z.array(z.string()));

const common = {
  name: d(z.string().regex(NAME_PATTERN), 'Unique across failures and patterns.'),
  trigger: d(z.string(), 'What the situation looks like: an error message, a symptom.'),
  source: names('Campaigns, workspaces or people this was learned from.'),
  access_count: count('Times retrieved with --record or given feedback.'),
  last_accessed: d(z.union([isoDate('Last access.'), z.null()]), 'ISO 8601, or null if never accessed.'),
  related: names('Related entries of any type (the union of related_typed).'),
  related_typed: d(TypedEdgesSchema, 'Relation type -> names at the other end; every link is stored with its inverse at the other end.'),
  times_helped: count('Feedback: it helped.'),
  times_failed: count('Feedback: it did not help.'),
  created_at: isoDate('When it was learned.'),
  tags: d(z.array(z.string()), 'Free-form labels; query can filter on them.').optional(),
};

export const FailureSchema = z
  .strictObject({
    ...common,
    fix: d(z.string(), 'How to avoid or repair it.'),
    match: d(z.union([z.string(), z.null()]), 'Regular expression tested (case-insensitive) against query topics; unsafe patterns are never run.'),
    cost: d(z.number().min(0), 'What it cost when it happened (FTL: budget x 1000); ranking uses log2(cost + 1).'),
  })
  .register(memorySchemaRegistry, { id: 'Failure' });

export const PatternSchema = z
  .strictObject({
    ...common,
    insight: d(z.string(), 'What worked.'),
    saved: d(z.number().min(0), 'What applying it saves (FTL: budget x 500); ranking uses log2(saved + 1).'),
  })
  .register(memorySchemaRegistry, { id: 'Pattern' });

const Observed = d(z.array(z.string()), 'Workspaces (campaign/001_slug) whose memory_utilization already became feedback, oldest first (observing again does not count it twice).').optional();

export const MemoryDataSchema = z.strictObject({
  failures: z.array(FailureSchema),
  patterns: z.array(PatternSchema),
  observed: Observed,
});

/** The file: the store's envelope plus the data. */
export const MemoryFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    schemaVersion: z.literal(1),
    failures: z.array(FailureSchema),
    patterns: z.array(PatternSchema),
    observed: Observed,
  })
  .register(memorySchemaRegistry, { id: 'MemoryFile', title: 'Ratchet memory.json', description: 'Failures and patterns learned by @ratchet/memory.' });

export function memoryJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(MemoryFileSchema, { target: 'draft-2020-12', metadata: memorySchemaRegistry }), $id: MEMORY_SCHEMA_URL };
}
