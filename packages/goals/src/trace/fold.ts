/**
 * The pure heart of the turn trace: fold a turn's records into its trace, check a new record
 * against it (the history shortcuts an agent would take are refused here), and find the budgets a
 * turn or span has gone past. No I/O and no clock: timestamps come in the records.
 */
import { createHash } from 'node:crypto';
import { GoalsError, InputError } from '../errors.js';
import type { BudgetName, TraceBudgets, TraceEvent, TraceRecord, TraceSpan, TraceUsage, TurnTrace } from './types.js';

/** A record and where it was read (for errors in a hand-edited trace file). */
export interface LocatedRecord {
  record: TraceRecord;
  file?: string | undefined;
  line?: number | undefined;
}

export const BUDGET_NAMES: readonly BudgetName[] = ['tokens', 'tools', 'time_ms'];

/** A refused recording: the trace's history is what it is (exit 1 from the CLI). */
export class TraceStateError extends GoalsError {
  constructor(reason: string) {
    super('trace-state', reason);
  }
}

/** The trace id of a turn: derived, so the same turn started at the same time has the same id. */
export function traceIdFor(turnId: string, ts: string): string {
  return `tr-${createHash('sha256').update(`${turnId}\u0000${ts}`).digest('hex').slice(0, 24)}`;
}

const ms = (ts: string): number => {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? 0 : t;
};

const placeOf = (r: LocatedRecord): { path?: string; line?: number } => ({ ...(r.file === undefined ? {} : { path: r.file }), ...(r.line === undefined ? {} : { line: r.line }) });

/** A record that does not fit the records before it (a hand-edited file): an input error at its line. */
function misplaced(r: LocatedRecord, reason: string): GoalsError {
  return new GoalsError('invalid-input', reason, placeOf(r));
}

/**
 * The trace of `turnId` from its records, in file order; undefined when the turn never started.
 * Records that contradict the ones before them (a span ended twice, an event in an unknown span)
 * are input errors naming their file and line: the recorder never writes them.
 */
export function foldTrace(records: readonly LocatedRecord[], turnId: string): TurnTrace | undefined {
  let trace: TurnTrace | undefined;
  let latest = 0;
  const spans = new Map<string, TraceSpan>();
  const usage: { tokens: Map<string | undefined, number>; tools: Map<string | undefined, number> } = { tokens: new Map(), tools: new Map() };
  const add = (map: Map<string | undefined, number>, span: string | undefined, n: number | undefined): void => void map.set(span, (map.get(span) ?? 0) + (n ?? 0));
  for (const located of records) {
    const r = located.record;
    if (r.turn_id !== turnId) continue;
    if (r.type === 'turn_start') {
      if (trace !== undefined) throw misplaced(located, `turn ${turnId} starts twice`);
      trace = { trace_id: r.trace_id, turn_id: r.turn_id, status: 'open', start_ts: r.ts, budgets: { ...r.budgets }, ...(r.registry === undefined ? {} : { registry: r.registry }), usage: { tokens: 0, tools: 0, time_ms: 0 }, spans: [], events: [] };
      latest = ms(r.ts);
      continue;
    }
    if (trace === undefined) throw misplaced(located, `a ${r.type} record of turn ${turnId} comes before the turn starts`);
    if (trace.status === 'ended') throw misplaced(located, `a ${r.type} record of turn ${turnId} comes after the turn ended`);
    latest = Math.max(latest, ms(r.ts));
    if (r.type === 'turn_end') {
      trace.status = 'ended';
      trace.end_ts = r.ts;
    } else if (r.type === 'span_start') {
      if (spans.has(r.span_id)) throw misplaced(located, `span ${r.span_id} starts twice`);
      if (r.parent_span_id !== undefined && !spans.has(r.parent_span_id)) throw misplaced(located, `span ${r.span_id} names parent ${r.parent_span_id}, which has not started`);
      const span: TraceSpan = { span_id: r.span_id, component: r.component, start_ts: r.ts, status: 'open', depends_on: [...r.depends_on], usage: { tokens: 0, tools: 0, time_ms: 0 } };
      if (r.parent_span_id !== undefined) span.parent_span_id = r.parent_span_id;
      if (r.budgets !== undefined) span.budgets = { ...r.budgets };
      spans.set(r.span_id, span);
      trace.spans.push(span);
    } else if (r.type === 'span_end') {
      const span = spans.get(r.span_id);
      if (span === undefined || span.status !== 'open') throw misplaced(located, `span ${r.span_id} ends ${span === undefined ? 'without having started' : 'twice'}`);
      span.status = r.status;
      span.end_ts = r.ts;
      add(usage.tokens, r.span_id, r.tokens);
      add(usage.tools, r.span_id, r.tools);
    } else {
      const { type: _type, turn_id: _turn, ...event } = r;
      if (event.span_id !== undefined && !spans.has(event.span_id)) throw misplaced(located, `event ${event.event_id} is in span ${event.span_id}, which has not started`);
      trace.events.push(event);
      add(usage.tokens, event.span_id, event.tokens);
      add(usage.tools, event.span_id, toolsOf(event));
    }
  }
  if (trace === undefined) return undefined;
  const until = (end: string | undefined): number => (end === undefined ? latest : ms(end));
  const sum = (map: Map<string | undefined, number>): number => [...map.values()].reduce((a, b) => a + b, 0);
  trace.usage = { tokens: sum(usage.tokens), tools: sum(usage.tools), time_ms: Math.max(0, until(trace.end_ts) - ms(trace.start_ts)) };
  // A span's usage includes its child spans': children start after their parent, so walk backwards.
  for (const span of trace.spans) {
    span.usage = { tokens: usage.tokens.get(span.span_id) ?? 0, tools: usage.tools.get(span.span_id) ?? 0, time_ms: Math.max(0, until(span.end_ts) - ms(span.start_ts)) };
  }
  for (const span of [...trace.spans].reverse()) {
    const parent = span.parent_span_id === undefined ? undefined : spans.get(span.parent_span_id);
    if (parent !== undefined) {
      parent.usage.tokens += span.usage.tokens;
      parent.usage.tools += span.usage.tools;
    }
  }
  return trace;
}

/** Tool invocations an event reports: its `tools`, else 1 for a ToolInvocation. */
export const toolsOf = (e: Pick<TraceEvent, 'kind' | 'tools'>): number => e.tools ?? (e.kind === 'ToolInvocation' ? 1 : 0);

/**
 * Refuse a record that would rewrite the turn's history: anything into a turn that has not started
 * or has ended, a timestamp before what it follows (an end before its start), a span ended twice, an
 * event in a closed span. A `depends_on` or parent naming a span the turn does not have is an input
 * error (it would make the replay order meaningless).
 */
export function checkAppend(trace: TurnTrace | undefined, record: TraceRecord): void {
  const turn = record.turn_id;
  if (record.type === 'turn_start') {
    if (trace !== undefined) throw new TraceStateError(`turn ${turn} has already started (at ${trace.start_ts}): a turn's trace is never restarted; use a new turn id`);
    return;
  }
  if (trace === undefined) throw new TraceStateError(`turn ${turn} has not started: run \`ratchet turn start ${turn}\` first`);
  if (trace.status === 'ended') throw new TraceStateError(`turn ${turn} ended at ${trace.end_ts}: its trace is closed, nothing more is recorded into it`);
  if (ms(record.ts) < ms(trace.start_ts)) throw new TraceStateError(`${record.ts} is before turn ${turn} started (${trace.start_ts}): a trace only moves forward`);
  const span = (id: string): TraceSpan | undefined => trace.spans.find((s) => s.span_id === id);
  if (record.type === 'span_start') {
    if (span(record.span_id) !== undefined) throw new TraceStateError(`span ${record.span_id} already exists in turn ${turn}`);
    if (record.parent_span_id !== undefined) {
      const parent = span(record.parent_span_id);
      if (parent === undefined) throw new InputError(`span ${record.span_id}: parent span ${record.parent_span_id} is not in turn ${turn}`, 'invalid-input');
      if (parent.status !== 'open') throw new TraceStateError(`span ${record.span_id}: parent span ${parent.span_id} has ended`);
    }
    const missing = record.depends_on.filter((d) => d === record.span_id || span(d) === undefined);
    if (missing.length > 0) throw new InputError(`span ${record.span_id} depends on ${missing.join(', ')}, which turn ${turn} does not have (a span depends only on spans started before it)`, 'invalid-input');
    return;
  }
  if (record.type === 'span_end') {
    const s = span(record.span_id);
    if (s === undefined) throw new TraceStateError(`span ${record.span_id} is not in turn ${turn}`);
    if (s.status !== 'open') throw new TraceStateError(`span ${record.span_id} already ended (${s.end_ts}, ${s.status})`);
    if (ms(record.ts) < ms(s.start_ts)) throw new TraceStateError(`span ${record.span_id} cannot end at ${record.ts}, before it started (${s.start_ts})`);
    const open = trace.spans.filter((c) => c.parent_span_id === s.span_id && c.status === 'open').map((c) => c.span_id);
    if (open.length > 0) throw new TraceStateError(`span ${record.span_id} has open child spans (${open.join(', ')}): end them first`);
    return;
  }
  if (record.type === 'event' && record.span_id !== undefined) {
    const s = span(record.span_id);
    if (s === undefined) throw new TraceStateError(`span ${record.span_id} is not in turn ${turn}`);
    if (s.status !== 'open') throw new TraceStateError(`span ${record.span_id} ended at ${s.end_ts}: an event cannot be added to it afterwards`);
    if (ms(record.ts) < ms(s.start_ts)) throw new TraceStateError(`an event at ${record.ts} cannot be in span ${s.span_id}, which started at ${s.start_ts}`);
  }
}

/** A budget gone past: where, which, by how much. */
export interface BudgetBreach {
  scope: 'turn' | 'span';
  span_id?: string | undefined;
  budget: BudgetName;
  allowed: number;
  used: number;
  over: number;
}

const reported = (trace: TurnTrace, b: BudgetBreach): boolean =>
  trace.events.some((e) => e.kind === 'Policy' && e.payload?.budget === b.budget && e.payload.scope === b.scope && (b.scope === 'turn' || e.payload.span_id === b.span_id));

/** Every budget of the turn and its spans that is exceeded and has no Policy event yet. */
export function newBreaches(trace: TurnTrace): BudgetBreach[] {
  const out: BudgetBreach[] = [];
  const check = (scope: 'turn' | 'span', budgets: TraceBudgets | undefined, usage: TraceUsage, span_id?: string): void => {
    for (const budget of BUDGET_NAMES) {
      const allowed = budgets?.[budget];
      if (allowed === undefined || usage[budget] <= allowed) continue;
      const breach: BudgetBreach = { scope, budget, allowed, used: usage[budget], over: usage[budget] - allowed, ...(span_id === undefined ? {} : { span_id }) };
      if (!reported(trace, breach)) out.push(breach);
    }
  };
  check('turn', trace.budgets, trace.usage);
  for (const s of trace.spans) check('span', s.budgets, s.usage, s.span_id);
  return out;
}

const UNIT: Record<BudgetName, string> = { tokens: 'tokens', tools: 'tool invocations', time_ms: 'ms' };

/** The Policy event recording a breach (its id is given when it is appended). */
export function breachEvent(trace: TurnTrace, b: BudgetBreach, ts: string): Omit<TraceEvent, 'event_id'> {
  const where = b.scope === 'turn' ? `turn ${trace.turn_id}` : `span ${b.span_id}`;
  return {
    ts,
    kind: 'Policy',
    summary: `${where} went past its ${b.budget} budget by ${b.over} ${UNIT[b.budget]} (${b.used} used of ${b.allowed})`,
    payload: { policy: 'budget', scope: b.scope, budget: b.budget, allowed: b.allowed, used: b.used, over: b.over, ...(b.span_id === undefined ? {} : { span_id: b.span_id }) },
    ...(b.span_id === undefined ? {} : { span_id: b.span_id }),
  };
}

/** The id of the next event in the turn. */
export const nextEventId = (trace: TurnTrace): string => `e${trace.events.length + 1}`;
