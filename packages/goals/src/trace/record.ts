/**
 * The recordings the turn commands, the planner steps, proposals and a harness make, over a
 * TraceLog: each is one locked check-then-append (see log.ts), refused when it would rewrite the
 * turn's history (fold.ts `checkAppend`).
 */
import { checkId } from '../tx.js';
import { traceIdFor } from './fold.js';
import type { RecordResult, TraceLog } from './log.js';
import type { EventKind, TraceBudgets } from './types.js';

export interface SpanStart {
  span_id: string;
  component: string;
  parent_span_id?: string | undefined;
  depends_on?: readonly string[] | undefined;
  budgets?: TraceBudgets | undefined;
}

export interface SpanEnd {
  span_id: string;
  status?: 'ok' | 'error' | undefined;
  tokens?: number | undefined;
  tools?: number | undefined;
}

export interface EventInput {
  kind: EventKind;
  summary: string;
  span_id?: string | undefined;
  payload?: Record<string, unknown> | undefined;
  proposal_id?: string | undefined;
  tokens?: number | undefined;
  tools?: number | undefined;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Drop undefined fields: records are written as JSON and checked by a strict schema. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const checkIds = (ids: readonly (string | undefined)[], what: string): void => {
  for (const id of ids) if (id !== undefined) checkId(id, what);
};

/** Start a turn with its budgets (refused if the turn id was used before). */
/**
 * Start a turn. `registry`: the digest of the action-type registry pinned for it (pinRegistry), which
 * its commit is judged against.
 */
export async function startTurn(log: TraceLog, turnId: string, budgets: TraceBudgets, now: number, registry?: string): Promise<RecordResult> {
  checkId(turnId, 'turn');
  const ts = iso(now);
  return log.record(turnId, () => [{ type: 'turn_start', trace_id: traceIdFor(turnId, ts), turn_id: turnId, ts, budgets: defined(budgets), ...(registry === undefined ? {} : { registry }) }]);
}

/**
 * End a turn: spans still open end with status error at the same time (a turn does not end with
 * work in flight), an optional Summary event is added, then the turn closes for good.
 */
export async function endTurn(log: TraceLog, turnId: string | undefined, now: number, summary?: string): Promise<RecordResult> {
  checkIds([turnId], 'turn');
  const ts = iso(now);
  return log.record(turnId, (trace, id) => {
    const open = (trace?.spans ?? []).filter((s) => s.status === 'open').reverse();
    return [
      ...open.map((s) => ({ type: 'span_end' as const, turn_id: id, span_id: s.span_id, ts, status: 'error' as const })),
      ...(summary === undefined ? [] : [{ type: 'event' as const, turn_id: id, ts, kind: 'Summary' as const, summary }]),
      { type: 'turn_end', turn_id: id, ts },
    ];
  });
}

export async function startSpan(log: TraceLog, turnId: string | undefined, span: SpanStart, now: number): Promise<RecordResult> {
  checkIds([turnId], 'turn');
  checkIds([span.span_id, span.parent_span_id, ...(span.depends_on ?? [])], 'span');
  const ts = iso(now);
  return log.record(turnId, (_trace, id) => [
    defined({ type: 'span_start' as const, turn_id: id, span_id: span.span_id, parent_span_id: span.parent_span_id, component: span.component, ts, depends_on: [...new Set(span.depends_on ?? [])], budgets: span.budgets === undefined ? undefined : defined(span.budgets) }),
  ]);
}

export async function endSpan(log: TraceLog, turnId: string | undefined, span: SpanEnd, now: number): Promise<RecordResult> {
  checkIds([turnId], 'turn');
  checkIds([span.span_id], 'span');
  const ts = iso(now);
  return log.record(turnId, (_trace, id) => [defined({ type: 'span_end' as const, turn_id: id, span_id: span.span_id, ts, status: span.status ?? 'ok', tokens: span.tokens, tools: span.tools })]);
}

export async function addEvent(log: TraceLog, turnId: string | undefined, event: EventInput, now: number): Promise<RecordResult> {
  checkIds([turnId], 'turn');
  checkIds([event.span_id], 'span');
  checkIds([event.proposal_id], 'proposal');
  const ts = iso(now);
  return log.record(turnId, (_trace, id) => [defined({ type: 'event' as const, turn_id: id, ts, ...event })]);
}
