/**
 * The turn trace's types, derived from the zod schemas in ./schema.ts (the one source of the formats:
 * they also generate the shipped JSON Schemas and the precompiled validators the recorder uses).
 * `import type` only: recording never loads zod.
 */
import type { z } from 'zod';
import type { TraceBudgetsSchema, TraceConfigSchema, TraceEventSchema, TraceRecordSchema, TraceSpanSchema, TraceUsageSchema, TurnTraceSchema } from './schema.js';

/** Budgets of a turn or span (tokens, tools, time_ms); an absent one is unlimited. */
export type TraceBudgets = z.infer<typeof TraceBudgetsSchema>;
/** What was used: tokens, tool invocations, milliseconds from the start. */
export type TraceUsage = z.infer<typeof TraceUsageSchema>;
export type BudgetName = keyof TraceUsage;
/** Something that happened in a turn (a Decision, ToolInvocation, Observation, Error, Policy or Summary). */
export type TraceEvent = z.infer<typeof TraceEventSchema>;
export type EventKind = TraceEvent['kind'];
/** One line of traces.jsonl: a turn or span starting or ending, or an event. */
export type TraceRecord = z.infer<typeof TraceRecordSchema>;
export type TraceSpan = z.infer<typeof TraceSpanSchema>;
/**
 * A turn's trace as the seed writes it: `{trace_id, turn_id, budgets, spans, events}`, plus status
 * and usage; `registry` is the digest of the registry pinned when the turn started (see registry-pins.ts).
 */
export type TurnTrace = z.infer<typeof TurnTraceSchema>;
/** `.ratchet/trace.config.json`. */
export type TraceConfig = z.infer<typeof TraceConfigSchema>;

/** The event kinds, for checking input without the zod schema. */
export const EVENT_KIND_NAMES: readonly EventKind[] = ['Decision', 'ToolInvocation', 'Observation', 'Error', 'Policy', 'Summary'];
