/** The turn trace (seed 002): formats, the pure fold/check/budget/replay core, the JSONL log and the recordings. */
export { EVENT_KIND_NAMES } from './types.js';
export type { BudgetName, EventKind, TraceBudgets, TraceConfig, TraceEvent, TraceRecord, TraceSpan, TraceUsage, TurnTrace } from './types.js';
export { TRACE_CONFIG_SCHEMA_URL, TRACE_RECORD_SCHEMA_URL, TURN_TRACE_SCHEMA_URL } from './urls.js';
export { BUDGET_NAMES, TraceStateError, breachEvent, checkAppend, foldTrace, newBreaches, nextEventId, toolsOf, traceIdFor, type BudgetBreach, type LocatedRecord } from './fold.js';
export { replay, replayOrder, type Replay, type ReplayStep } from './replay.js';
export { DEFAULT_ROTATE_BYTES, DEFAULT_TRACE_FILE, TRACE_READ_LIMIT, openTraceLog, parseTraceText, type NewRecord, type RecordResult, type TraceLog, type TraceLogOptions, type TraceRead } from './log.js';
export { addEvent, endSpan, endTurn, startSpan, startTurn, type EventInput, type SpanEnd, type SpanStart } from './record.js';
export { DEFAULT_TRACE_CONFIG_FILE, readTraceConfig } from './config.js';
export { traceConfigIssues, traceRecordIssues } from './validate.js';
