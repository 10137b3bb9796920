/**
 * `ratchet turn start|end` and `ratchet turn trace span|event|show|replay`: the turn trace of
 * @ratchet/goals. start/end open and close a turn with its budgets; span and event are how a
 * harness records its own work (tool calls happen in the harness); show prints a turn as a tree of
 * spans with their events and budgets used vs allowed; replay prints its spans in dependency order.
 */
import { EVENT_KIND_NAMES, addEvent, endSpan, endTurn, pinRegistry, registryTrustProblem, replay, startSpan, startTurn, type EventKind, type RecordResult, type TraceBudgets, type TraceEvent, type TurnTrace } from '@ratchet/goals';
import { parseJson } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { versioned } from '../../output/json-output.js';
import { actorOf, clockOf, intOption, loadRegistryFor, openState, registryFileOf, type Options } from './shared.js';
import { mapTraceErrors, noteRecording, openTraces, traceConfigOf, turnOf } from './trace-log.js';

export default async function trace(ctx: Context, args: string[], options: Options): Promise<number> {
  const [command, ...rest] = args;
  return mapTraceErrors(ctx, async () => {
    const now = clockOf(options)();
    if (command === 'start') {
      const config = await traceConfigOf(ctx, options);
      const id = rest[0] ?? `turn-${now.toString(36)}`;
      const budgets = budgetsOf(options, config.budgets);
      // The turn runs under the registry in use now (the agent may not bring its own): pinned first, so the start record never names a missing pin.
      const registry = await loadRegistryFor(ctx, options);
      const file = registryFileOf(ctx, options, registry);
      // Judged as the agent's mutations are: a registry no user approved (an edited file) is not pinned for it.
      const problem = file === undefined ? undefined : registryTrustProblem(await (await openState(ctx, options)).read(), actorOf(ctx, options), file);
      if (problem !== undefined) throw new CliError(problem.reason, { code: problem.code, exitCode: EXIT_PROBLEMS, file: file!.path });
      const pin = await pinRegistry(ctx.cwd, registry);
      return recorded(ctx, await startTurn(await openTraces(ctx, options, config), id, budgets, now, pin), `started turn ${id}${budgetText(budgets)}`, false);
    }
    const log = await openTraces(ctx, options);
    if (command === 'end') return recorded(ctx, await endTurn(log, turnOf(ctx, options, rest[0]), now, options.summary as string | undefined), 'ended turn');
    if (command === 'span') {
      const [what, spanId] = rest;
      if (spanId === undefined || (what !== 'start' && what !== 'end')) throw new CliError('turn trace span: give start|end <span>');
      if (what === 'start') {
        const r = await startSpan(log, turnOf(ctx, options), { span_id: spanId, component: (options.component as string | undefined) ?? 'harness', parent_span_id: options.parent as string | undefined, depends_on: (options.dependsOn as string[] | undefined) ?? [], budgets: orNone(budgetsOf(options)) }, now);
        return recorded(ctx, r, `started span ${spanId}`);
      }
      const status = (options.status as 'ok' | 'error' | undefined) ?? 'ok';
      return recorded(ctx, await endSpan(log, turnOf(ctx, options), { span_id: spanId, status, tokens: count(options.tokens, '--tokens'), tools: count(options.tools, '--tools') }, now), `ended span ${spanId} (${status})`);
    }
    if (command === 'event') {
      const [kind, summary] = rest;
      if (kind === undefined || !(EVENT_KIND_NAMES as readonly string[]).includes(kind)) throw new CliError(`turn trace event: <kind> is one of ${EVENT_KIND_NAMES.join(', ')}, not ${JSON.stringify(kind)}`);
      if (summary === undefined || summary.trim() === '') throw new CliError('turn trace event: give a <summary>');
      const event = { kind: kind as EventKind, summary, span_id: options.span as string | undefined, payload: payloadOf(options.payload), proposal_id: options.proposal as string | undefined, tokens: count(options.tokens, '--tokens'), tools: count(options.tools, '--tools') };
      return recorded(ctx, await addEvent(log, turnOf(ctx, options), event, now), `recorded ${kind}`);
    }
    const read = await log.read(turnOf(ctx, options, rest[0]));
    noteRecording(ctx, read);
    const t = read.trace;
    if (t === undefined) throw new CliError(rest[0] === undefined && turnOf(ctx, options) === undefined ? 'no turn has been traced yet (ratchet turn start)' : `no trace of turn ${JSON.stringify(turnOf(ctx, options, rest[0]))}`, { code: 'not-found' });
    if (command === 'show') {
      if (ctx.json) ctx.emitJson(versioned('turn-trace-show', { ok: true, trace: t, tree: tree(t), over: overBudget(t), warnings: read.warnings }));
      else for (const line of showLines(t)) ctx.out(line);
      return EXIT_OK;
    }
    if (command === 'replay') {
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
    }
    throw new CliError(`turn trace: unknown command ${JSON.stringify(command)}`);
  });
}

function recorded(ctx: Context, r: RecordResult, what: string, withUsage = true): number {
  noteRecording(ctx, r);
  if (ctx.json) ctx.emitJson({ ok: true, turn_id: r.trace.turn_id, trace_id: r.trace.trace_id, appended: r.appended, breaches: r.breaches, usage: r.trace.usage, budgets: r.trace.budgets });
  else ctx.out(withUsage ? `${what} (turn ${r.trace.turn_id}: ${usageText(r.trace.usage, r.trace.budgets)})` : what);
  return EXIT_OK;
}

const count = (value: unknown, name: string): number | undefined => intOption(value, name, 0);

/** A span without budget flags has no budgets (not an empty set of them). */
const orNone = (b: TraceBudgets): TraceBudgets | undefined => (Object.keys(b).length === 0 ? undefined : b);

/** Budgets from --tokens/--tools/--time-ms, each falling back to the configured default. */
function budgetsOf(options: Options, defaults: TraceBudgets = {}): TraceBudgets {
  const pick = (flag: unknown, name: string, fallback: number | undefined): Partial<TraceBudgets> => {
    const v = count(flag, name) ?? fallback;
    return v === undefined ? {} : { [name.slice(2).replace('-', '_')]: v };
  };
  return { ...pick(options.tokens, '--tokens', defaults.tokens), ...pick(options.tools, '--tools', defaults.tools), ...pick(options.timeMs, '--time-ms', defaults.time_ms) };
}

/** --payload: a JSON object, through the guarded parser (no __proto__ keys). */
function payloadOf(text: unknown): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== 'string') throw new CliError('--payload must be a JSON object');
  const value = parseJson(text, { path: '--payload' });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError('--payload must be a JSON object');
  return value as Record<string, unknown>;
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
