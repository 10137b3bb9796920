/**
 * The turn trace formats (seed 002: "all context and decisions are logged to Turn Trace"), as zod
 * schemas: the one source of truth. scripts/generate.ts derives from them the shipped JSON Schemas
 * (`turn-trace.schema.json`, `trace-record.schema.json`, `trace-config.schema.json`) and the
 * precompiled validators the recorder uses, so recording never loads zod.
 *
 * On disk a trace is not one document but JSON Lines: one record per span start, span end, event,
 * turn start and turn end (`TraceRecordSchema`), appended and never rewritten. `TurnTraceSchema` is
 * the trace as the seed writes it, `{trace_id, turn_id, budgets, spans, events}`, folded from them.
 */
import { z } from 'zod';
import { jsonSchema } from '../zod-json-schema.js';
import { TRACE_CONFIG_SCHEMA_URL, TRACE_RECORD_SCHEMA_URL, TURN_TRACE_SCHEMA_URL } from './urls.js';

export { TRACE_CONFIG_SCHEMA_URL, TRACE_RECORD_SCHEMA_URL, TURN_TRACE_SCHEMA_URL };

/** Ids of turns, spans, events and proposals: a safe token, never a path and never `__proto__`. */
const Id = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/)
  .describe('An id: a letter or digit, then letters, digits, "_", ".", ":" or "-" (at most 128 characters).');
const Ts = z.string().min(1).max(64).describe('An ISO 8601 timestamp (UTC, as Date#toISOString writes it).');
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const RegistryDigest = z.string().regex(/^[0-9a-f]{64}$/).describe('The sha256 (hex) of a pinned registry file.');

export const EVENT_KINDS = ['Decision', 'ToolInvocation', 'Observation', 'Error', 'Policy', 'Summary'] as const;

export const TraceBudgetsSchema = z
  .object({
    tokens: Count.optional().describe('Tokens the turn (or span) may use.'),
    tools: Count.optional().describe('Tool invocations the turn (or span) may make.'),
    time_ms: Count.optional().describe('Wall-clock milliseconds from its start.'),
  })
  .strict()
  .describe('Budgets; an absent one is unlimited. Going past one records a Policy event naming it and by how much.');

const Usage = {
  tokens: Count.optional().describe('Tokens used by what this record reports.'),
  tools: Count.optional().describe('Tool invocations it reports (a ToolInvocation event counts 1 unless it says otherwise).'),
};

const EventFields = {
  event_id: Id.describe('Unique in the turn: e1, e2, ... in recording order.'),
  span_id: Id.optional().describe('The span the event happened in; none for a turn-level event.'),
  ts: Ts,
  kind: z.enum(EVENT_KINDS).describe('Decision, ToolInvocation, Observation, Error, Policy or Summary.'),
  summary: z.string().min(1).max(4000).describe('One line a person reads.'),
  payload: z.record(z.string(), z.unknown()).optional().describe('Structured details (a budget breach: {scope, budget, allowed, used, over}).'),
  proposal_id: Id.optional().describe('The registry proposal this event is about (a proposal filed, amended, reviewed or merged during the turn).'),
  ...Usage,
};

export const TraceRecordSchema = z
  .discriminatedUnion('type', [
    z
      .object({
        type: z.literal('turn_start'),
        trace_id: Id,
        turn_id: Id,
        ts: Ts,
        budgets: TraceBudgetsSchema,
        registry: RegistryDigest.optional().describe('The action-type registry the turn runs under: the digest of its copy in .ratchet/registry-pins/ (a type merged while the turn runs takes effect from the next turn).'),
      })
      .strict()
      .describe('A turn begins, with its budgets.'),
    z
      .object({
        type: z.literal('span_start'),
        turn_id: Id,
        span_id: Id,
        parent_span_id: Id.optional(),
        component: z.string().min(1).max(200).describe('What runs in the span: planner, executor, a tool name, ...'),
        ts: Ts,
        depends_on: z.array(Id).max(1000).describe('Spans that must come before this one in a replay.'),
        budgets: TraceBudgetsSchema.optional(),
      })
      .strict()
      .describe('A span begins.'),
    z
      .object({ type: z.literal('span_end'), turn_id: Id, span_id: Id, ts: Ts, status: z.enum(['ok', 'error']), ...Usage })
      .strict()
      .describe('A span ends.'),
    z
      .object({ type: z.literal('event'), turn_id: Id, ...EventFields })
      .strict()
      .describe('Something happened in the turn.'),
    z
      .object({ type: z.literal('turn_end'), turn_id: Id, ts: Ts })
      .strict()
      .describe('The turn is over: nothing more is recorded into it.'),
  ])
  .meta({ id: 'TraceRecord', title: 'Ratchet turn trace record: one line of traces.jsonl' });

export const TraceUsageSchema = z
  .object({ tokens: Count, tools: Count, time_ms: Count })
  .strict()
  .describe('What was used: tokens, tool invocations, milliseconds from the start to the end (or the latest record).');

export const TraceSpanSchema = z
  .object({
    span_id: Id,
    parent_span_id: Id.optional(),
    component: z.string(),
    start_ts: Ts,
    end_ts: Ts.optional().describe('Absent while the span is open.'),
    status: z.enum(['open', 'ok', 'error']),
    depends_on: z.array(Id),
    budgets: TraceBudgetsSchema.optional(),
    usage: TraceUsageSchema.describe("The span's usage, its child spans' included."),
  })
  .strict()
  .meta({ id: 'TraceSpan' });

export const TraceEventSchema = z.object(EventFields).strict().meta({ id: 'TraceEvent' });

export const TurnTraceSchema = z
  .object({
    trace_id: Id,
    turn_id: Id,
    status: z.enum(['open', 'ended']),
    start_ts: Ts,
    end_ts: Ts.optional(),
    budgets: TraceBudgetsSchema,
    registry: RegistryDigest.optional().describe('The action-type registry the turn runs under (pinned when it started).'),
    usage: TraceUsageSchema,
    spans: z.array(TraceSpanSchema).describe('In the order they started.'),
    events: z.array(TraceEventSchema).describe('In the order they were recorded.'),
  })
  .strict()
  .meta({ id: 'TurnTrace', title: 'Ratchet turn trace (Frontal Cortex): budgets, spans and events of one turn' });

export const TraceConfigSchema = z
  .object({
    $schema: z.string().optional(),
    budgets: TraceBudgetsSchema.optional().describe('Default budgets of a turn started without --tokens, --tools or --time-ms.'),
    rotate_bytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .optional()
      .describe('traces.jsonl rolls over to traces.N.jsonl once it would grow past this many bytes (default 8 MiB).'),
  })
  .strict()
  .meta({ id: 'TraceConfig', title: 'Ratchet turn trace configuration (.ratchet/trace.config.json)' });


export const turnTraceJsonSchema = (): Record<string, unknown> => jsonSchema(TurnTraceSchema, TURN_TRACE_SCHEMA_URL);
export const traceRecordJsonSchema = (): Record<string, unknown> => jsonSchema(TraceRecordSchema, TRACE_RECORD_SCHEMA_URL);
export const traceConfigJsonSchema = (): Record<string, unknown> => jsonSchema(TraceConfigSchema, TRACE_CONFIG_SCHEMA_URL);
