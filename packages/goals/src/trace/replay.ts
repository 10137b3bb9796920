/**
 * Replay (seed 002: "replay = topo sort over depends_on"): the order a turn's spans can be re-run in,
 * every span after the spans it depends on. Ties break by start time, then span id, so the same
 * trace always replays the same way. A `depends_on` naming a span the trace lacks, or a cycle, makes
 * the order meaningless: both are refused, naming the spans.
 */
import { GoalsError } from '../errors.js';
import type { TraceEvent, TraceSpan, TurnTrace } from './types.js';

export interface ReplayStep {
  /** 1-based position in the replay. */
  position: number;
  span: TraceSpan;
  /** The span's own events, in recording order. */
  events: TraceEvent[];
}

export interface Replay {
  trace_id: string;
  turn_id: string;
  order: string[];
  steps: ReplayStep[];
  /** Events outside any span (turn-level decisions, policies, the summary). */
  turn_events: TraceEvent[];
}

const before = (a: TraceSpan, b: TraceSpan): number => (a.start_ts < b.start_ts ? -1 : a.start_ts > b.start_ts ? 1 : a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0);

/** The spans in replay order (Kahn's algorithm, deterministic tie-break). Throws `invalid-input` on a dangling dependency or a cycle. */
export function replayOrder(spans: readonly TraceSpan[]): TraceSpan[] {
  const byId = new Map(spans.map((s) => [s.span_id, s]));
  const dangling = spans.flatMap((s) => s.depends_on.filter((d) => !byId.has(d)).map((d) => `${s.span_id} -> ${d}`));
  if (dangling.length > 0) throw new GoalsError('invalid-input', `cannot replay: depends_on names spans the trace does not have (${dangling.join(', ')})`);
  const waiting = new Map(spans.map((s) => [s.span_id, new Set(s.depends_on)]));
  const dependents = new Map<string, string[]>();
  for (const s of spans) for (const d of new Set(s.depends_on)) dependents.set(d, [...(dependents.get(d) ?? []), s.span_id]);
  const ready = spans.filter((s) => waiting.get(s.span_id)!.size === 0);
  const out: TraceSpan[] = [];
  while (ready.length > 0) {
    ready.sort(before);
    const next = ready.shift()!;
    out.push(next);
    for (const id of dependents.get(next.span_id) ?? []) {
      const set = waiting.get(id)!;
      set.delete(next.span_id);
      if (set.size === 0) ready.push(byId.get(id)!);
    }
  }
  if (out.length < spans.length) {
    const cycle = findCycle(spans.filter((s) => !out.includes(s)), byId);
    throw new GoalsError('invalid-input', `cannot replay: depends_on has a cycle (${cycle.join(' -> ')})`);
  }
  return out;
}

/** One cycle among spans that never became ready, as span ids with the first repeated at the end. */
function findCycle(stuck: readonly TraceSpan[], byId: ReadonlyMap<string, TraceSpan>): string[] {
  const stuckIds = new Set(stuck.map((s) => s.span_id));
  // Every stuck span waits on a stuck span: walking dependencies from any of them must revisit one.
  const path: string[] = [];
  const seenAt = new Map<string, number>();
  let current = [...stuckIds].sort()[0]!;
  while (!seenAt.has(current)) {
    seenAt.set(current, path.length);
    path.push(current);
    current = [...byId.get(current)!.depends_on].filter((d) => stuckIds.has(d)).sort()[0]!;
  }
  return [...path.slice(seenAt.get(current)), current];
}

export function replay(trace: TurnTrace): Replay {
  const spans = replayOrder(trace.spans);
  return {
    trace_id: trace.trace_id,
    turn_id: trace.turn_id,
    order: spans.map((s) => s.span_id),
    steps: spans.map((span, i) => ({ position: i + 1, span, events: trace.events.filter((e) => e.span_id === span.span_id) })),
    turn_events: trace.events.filter((e) => e.span_id === undefined),
  };
}
