/**
 * The turn trace's types (the zod schemas in ./schema.ts describe the same shapes; the main entry
 * never imports zod, so the types are written out here and a test checks they agree).
 */
export type EventKind = 'Decision' | 'ToolInvocation' | 'Observation' | 'Error' | 'Policy' | 'Summary';

export interface TraceBudgets {
  tokens?: number | undefined;
  tools?: number | undefined;
  time_ms?: number | undefined;
}

export type BudgetName = 'tokens' | 'tools' | 'time_ms';

export interface TraceUsage {
  tokens: number;
  tools: number;
  time_ms: number;
}

export interface TraceEvent {
  event_id: string;
  span_id?: string | undefined;
  ts: string;
  kind: EventKind;
  summary: string;
  payload?: Record<string, unknown> | undefined;
  proposal_id?: string | undefined;
  tokens?: number | undefined;
  tools?: number | undefined;
}

export type TraceRecord =
  | { type: 'turn_start'; trace_id: string; turn_id: string; ts: string; budgets: TraceBudgets; registry?: string | undefined }
  | { type: 'span_start'; turn_id: string; span_id: string; parent_span_id?: string | undefined; component: string; ts: string; depends_on: string[]; budgets?: TraceBudgets | undefined }
  | { type: 'span_end'; turn_id: string; span_id: string; ts: string; status: 'ok' | 'error'; tokens?: number | undefined; tools?: number | undefined }
  | ({ type: 'event'; turn_id: string } & TraceEvent)
  | { type: 'turn_end'; turn_id: string; ts: string };

export interface TraceSpan {
  span_id: string;
  parent_span_id?: string | undefined;
  component: string;
  start_ts: string;
  end_ts?: string | undefined;
  status: 'open' | 'ok' | 'error';
  depends_on: string[];
  budgets?: TraceBudgets | undefined;
  usage: TraceUsage;
}

/** A turn's trace as the seed writes it: `{trace_id, turn_id, budgets, spans, events}`, plus status and usage. */
export interface TurnTrace {
  trace_id: string;
  turn_id: string;
  status: 'open' | 'ended';
  start_ts: string;
  end_ts?: string | undefined;
  budgets: TraceBudgets;
  /** The digest of the registry pinned when the turn started (see registry-pins.ts). */
  registry?: string | undefined;
  usage: TraceUsage;
  spans: TraceSpan[];
  events: TraceEvent[];
}

/** `.ratchet/trace.config.json`. */
export interface TraceConfig {
  budgets?: TraceBudgets | undefined;
  rotate_bytes?: number | undefined;
}

/** The event kinds, for checking input without the zod schema. */
export const EVENT_KIND_NAMES: readonly EventKind[] = ['Decision', 'ToolInvocation', 'Observation', 'Error', 'Policy', 'Summary'];
