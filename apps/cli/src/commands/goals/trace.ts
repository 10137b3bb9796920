/**
 * `ratchet turn start|end` and `ratchet turn trace span|event|show|replay`: the turn trace of
 * @ratchet/goals. start/end open and close a turn with its budgets; span and event are how a
 * harness records its own work (tool calls happen in the harness); show prints a turn as a tree of
 * spans with their events and budgets used vs allowed; replay prints its spans in dependency order.
 */
import { replay, type TraceBudgets, type TraceEvent, type TurnTrace } from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { addTraceEvent, endTraceSpan, endTurnTrace, recordedResult, startTraceSpan, startTurnTrace, type Recorded } from '../../operations/goals-trace.js';
import { versioned } from '../../output/json-output.js';
import type { OptionBag } from '../../option-values.js';
import { endSpanInput, endTurnInput, startSpanInput, startTurnInput, traceEventInput, traceReadInput, type TraceReadInput } from './goals-inputs.js';
import { mapTraceErrors, noteRecording, openTraces, turnOf } from './trace-log.js';

export default async function trace(ctx: Context, args: string[], options: OptionBag): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'start') return recorded(ctx, await startTurnTrace(ctx, startTurnInput(rest, options)), (r) => `started turn ${r.result.trace.turn_id}${budgetText(r.budgets ?? {})}`, false);
  if (command === 'end') return recorded(ctx, await endTurnTrace(ctx, endTurnInput(rest, options)), () => 'ended turn');
  if (command === 'span') {
    const [what, spanId] = rest;
    if (spanId === undefined || (what !== 'start' && what !== 'end')) throw new CliError('turn trace span: give start|end <span>');
    if (what === 'start') return recorded(ctx, await startTraceSpan(ctx, startSpanInput(spanId, options)), () => `started span ${spanId}`);
    const input = endSpanInput(spanId, options);
    return recorded(ctx, await endTraceSpan(ctx, input), () => `ended span ${spanId} (${input.status ?? 'ok'})`);
  }
  if (command === 'event') {
    const input = traceEventInput(rest, options);
    return recorded(ctx, await addTraceEvent(ctx, input), () => `recorded ${input.kind}`);
  }
  return view(ctx, traceReadInput(args, options));
}

/** `turn trace show|replay [turn]`. */
async function view(ctx: Context, input: TraceReadInput): Promise<number> {
  return mapTraceErrors(ctx, async () => {
    const log = await openTraces(ctx, input);
    // The turn named, else $RATCHET_TURN; none: the turn started last.
    const turn = turnOf(ctx, input);
    const read = await log.read(turn);
    noteRecording(ctx, read);
    const t = read.trace;
    if (t === undefined) throw new CliError(turn === undefined ? 'no turn has been traced yet (ratchet turn start)' : `no trace of turn ${JSON.stringify(turn)}`, { code: 'not-found' });
    if (input.view === 'show') {
      if (ctx.json) ctx.emitJson(versioned('turn-trace-show', { ok: true, trace: t, tree: tree(t), over: overBudget(t), warnings: read.warnings }));
      else for (const line of showLines(t)) ctx.out(line);
      return EXIT_OK;
    }
    const r = replay(t);
    if (ctx.json) ctx.emitJson(versioned('turn-trace-replay', { ok: true, ...r, warnings: read.warnings }));
    else {
      ctx.out(`turn ${t.turn_id}: ${r.order.length} span${r.order.length === 1 ? '' : 's'} in replay order`);
      for (const s of r.steps) {
        ctx.out(`  ${s.position}. ${s.span.span_id} [${s.span.status}] ${s.span.component}${s.span.depends_on.length > 0 ? `  after ${s.span.depends_on.join(', ')}` : ''}`);
        for (const e of s.events) ctx.out(`       ${eventLine(e)}`);
      }
    }
    return EXIT_OK;
  });
}

/** A recording: its document under --json, else what was recorded (with the turn's usage). */
function recorded(ctx: Context, r: Recorded, what: (r: Recorded) => string, withUsage = true): number {
  const t = r.result.trace;
  if (ctx.json) ctx.emitJson(recordedResult(r).document);
  else ctx.out(withUsage ? `${what(r)} (turn ${t.turn_id}: ${usageText(t.usage, t.budgets)})` : what(r));
  return EXIT_OK;
}

const budgetText = (b: TraceBudgets): string => {
  const parts = (['tokens', 'tools', 'time_ms'] as const).filter((k) => b[k] !== undefined).map((k) => `${k} ${b[k]}`);
  return parts.length === 0 ? ' (no budgets)' : ` (budgets: ${parts.join(', ')})`;
};

const usageText = (u: TurnTrace['usage'], b: TraceBudgets): string =>
  (['tokens', 'tools', 'time_ms'] as const).map((k) => `${k} ${u[k]}${b[k] === undefined ? '' : `/${b[k]}${u[k] > b[k] ? ' OVER' : ''}`}`).join(', ');

/** Budgets gone past, turn and spans: what `show --json` lists under `over`. */
function overBudget(t: TurnTrace): { scope: 'turn' | 'span'; span_id?: string; budget: string; allowed: number; used: number; over: number }[] {
  const out: ReturnType<typeof overBudget> = [];
  const check = (scope: 'turn' | 'span', b: TraceBudgets | undefined, u: TurnTrace['usage'], span_id?: string): void => {
    for (const k of ['tokens', 'tools', 'time_ms'] as const) {
      const allowed = b?.[k];
      if (allowed !== undefined && u[k] > allowed) out.push({ scope, ...(span_id === undefined ? {} : { span_id }), budget: k, allowed, used: u[k], over: u[k] - allowed });
    }
  };
  check('turn', t.budgets, t.usage);
  for (const s of t.spans) check('span', s.budgets, s.usage, s.span_id);
  return out;
}

export interface TreeNode {
  span_id: string;
  events: string[];
  children: TreeNode[];
}

/** Spans nested under their parents (ids only; the spans and events themselves are in `trace`). */
function tree(t: TurnTrace): TreeNode[] {
  const nodes = new Map(t.spans.map((s) => [s.span_id, { span_id: s.span_id, events: t.events.filter((e) => e.span_id === s.span_id).map((e) => e.event_id), children: [] as TreeNode[] }]));
  const roots: TreeNode[] = [];
  for (const s of t.spans) (s.parent_span_id === undefined ? roots : nodes.get(s.parent_span_id)!.children).push(nodes.get(s.span_id)!);
  return roots;
}

const eventLine = (e: TraceEvent): string => `${e.event_id} ${e.kind}  ${e.summary}${e.proposal_id === undefined ? '' : `  [proposal ${e.proposal_id}]`}`;

function showLines(t: TurnTrace): string[] {
  const out = [`turn ${t.turn_id}  [${t.status}]  trace ${t.trace_id}  ${t.start_ts}${t.end_ts === undefined ? '' : ` -> ${t.end_ts}`}`, `  used: ${usageText(t.usage, t.budgets)}`];
  for (const e of t.events.filter((x) => x.span_id === undefined)) out.push(`  ${eventLine(e)}`);
  const bySpan = new Map(t.spans.map((s) => [s.span_id, s]));
  const walk = (node: TreeNode, depth: number): void => {
    const s = bySpan.get(node.span_id)!;
    const pad = '  '.repeat(depth + 1);
    out.push(`${pad}${s.span_id} [${s.status}] ${s.component}  ${usageText(s.usage, s.budgets ?? {})}${s.depends_on.length > 0 ? `  after ${s.depends_on.join(', ')}` : ''}`);
    for (const e of t.events.filter((x) => x.span_id === s.span_id)) out.push(`${pad}  ${eventLine(e)}`);
    for (const c of node.children) walk(c, depth + 1);
  };
  for (const root of tree(t)) walk(root, 0);
  return out;
}
