/**
 * The turn trace's writes as typed operations (`ratchet turn start|end`, `turn trace span
 * start|end`, `turn trace event`; the MCP tools `turn_start`, `turn_end`, `turn_trace`): each
 * record appended, and the document `--json` prints for it. Torn lines skipped and budgets gone past
 * are noted on stderr (ctx.note), whichever face records.
 */
import { EVENT_KIND_NAMES, addEvent, endSpan, endTurn, pinRegistry, registryTrustProblem, startSpan, startTurn, type EventKind, type RecordResult, type TraceBudgets } from '@ratchet/goals';
import { parseJson } from '@ratchet/store';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import type { EndSpanInput, EndTurnInput, EventKindName, StartSpanInput, StartTurnInput, TraceBudgetsInput, TraceEventInput, GoalsPlace } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export type { EndSpanInput, EndTurnInput, StartSpanInput, StartTurnInput, TraceEventInput } from './goals-input.js';

// goals-input.ts's event kinds are the library's, exactly.
const sameKinds: [Exclude<EventKind, EventKindName>] extends [never] ? ([Exclude<EventKindName, EventKind>] extends [never] ? true : never) : never = true;
void sameKinds;

async function traceHelpers() {
  const [shared, log] = await Promise.all([import('../commands/goals/shared.js'), import('../commands/goals/trace-log.js')]);
  return { ...shared, ...log };
}
type TraceHelpers = Awaited<ReturnType<typeof traceHelpers>>;

/** What every recording shares: the helpers loaded, the trace's errors mapped, the clock read once, the result noted. */
async function record(ctx: Context, place: GoalsPlace, write: (h: TraceHelpers, now: number) => Promise<Recorded>): Promise<Recorded> {
  const h = await traceHelpers();
  return h.mapTraceErrors(ctx, async () => {
    const recorded = await write(h, h.clockOf(place)());
    h.noteRecording(ctx, recorded.result);
    return recorded;
  });
}

/** A count: a whole number >= 0. */
function count(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) throw new CliError(`${name} must be an integer >= 0, got ${JSON.stringify(value)}`);
  return value;
}

/** Budgets given, each falling back to the configured default. */
export function budgetsOf(input: TraceBudgetsInput, defaults: TraceBudgets = {}): TraceBudgets {
  const out: TraceBudgets = {};
  const tokens = count(input.tokens, '--tokens') ?? defaults.tokens;
  const tools = count(input.tools, '--tools') ?? defaults.tools;
  const time = count(input.timeMs, '--time-ms') ?? defaults.time_ms;
  if (tokens !== undefined) out.tokens = tokens;
  if (tools !== undefined) out.tools = tools;
  if (time !== undefined) out.time_ms = time;
  return out;
}

/** What was recorded, and what the commands tell people about it. */
export interface Recorded {
  result: RecordResult;
  /** The budgets a started turn runs under. */
  budgets?: TraceBudgets | undefined;
}

/** Start a turn's trace under the registry in use now (pinned, and refused unless a user approved it for the agent). */
export async function startTurnTrace(ctx: Context, input: StartTurnInput): Promise<Recorded> {
  const place: GoalsPlace = input;
  return record(ctx, place, async (h, now) => {
    const config = await h.traceConfigOf(ctx, place);
    const id = input.turn ?? `turn-${now.toString(36)}`;
    const budgets = budgetsOf(input, config.budgets);
    // The turn runs under the registry in use now (the agent may not bring its own): pinned first, so the start record never names a missing pin.
    const registry = await h.loadRegistryFor(ctx, place);
    const file = h.registryFileOf(ctx, place, registry);
    // Judged as the agent's mutations are: a registry no user approved (an edited file) is not pinned for it.
    const problem = file === undefined ? undefined : registryTrustProblem(await (await h.openState(ctx, place)).read(), h.actorOf(ctx, place), file);
    if (problem !== undefined) throw new CliError(problem.reason, { code: problem.code, exitCode: EXIT_PROBLEMS, file: file!.path });
    const pin = await pinRegistry(ctx.cwd, registry);
    const result = await startTurn(await h.openTraces(ctx, place, config), id, budgets, now, pin);
    return { result, budgets };
  });
}

/** End a turn: spans still open end as errors; a summary adds a Summary event. */
export async function endTurnTrace(ctx: Context, input: EndTurnInput): Promise<Recorded> {
  const place: GoalsPlace = input;
  return record(ctx, place, async (h, now) => {
    const result = await endTurn(await h.openTraces(ctx, place), h.turnOf(ctx, {}, input.turn), now, input.summary);
    return { result };
  });
}

/** A span of work starting in the turn. */
export async function startTraceSpan(ctx: Context, input: StartSpanInput): Promise<Recorded> {
  const place: GoalsPlace = input;
  return record(ctx, place, async (h, now) => {
    const budgets = budgetsOf(input);
    const span = { span_id: input.span, component: input.component ?? 'harness', parent_span_id: input.parent, depends_on: [...(input.dependsOn ?? [])], budgets: Object.keys(budgets).length === 0 ? undefined : budgets };
    const result = await startSpan(await h.openTraces(ctx, place), h.turnOf(ctx, place), span, now);
    return { result };
  });
}

/** An open span ending, with what it used. */
export async function endTraceSpan(ctx: Context, input: EndSpanInput): Promise<Recorded> {
  const place: GoalsPlace = input;
  return record(ctx, place, async (h, now) => {
    const result = await endSpan(await h.openTraces(ctx, place), h.turnOf(ctx, place), { span_id: input.span, status: input.status ?? 'ok', tokens: count(input.tokens, '--tokens'), tools: count(input.tools, '--tools') }, now);
    return { result };
  });
}

/** An event in the turn, in an open span with `span`. */
export async function addTraceEvent(ctx: Context, input: TraceEventInput): Promise<Recorded> {
  const place: GoalsPlace = input;
  return record(ctx, place, async (h, now) => {
    if (!(EVENT_KIND_NAMES as readonly string[]).includes(input.kind)) throw new CliError(`turn trace event: <kind> is one of ${EVENT_KIND_NAMES.join(', ')}, not ${JSON.stringify(input.kind)}`);
    if (input.summary.trim() === '') throw new CliError('turn trace event: give a <summary>');
    // The payload as the store's guarded parser takes JSON (no __proto__ keys at any depth, bounded nesting).
    const payload = input.payload === undefined ? undefined : (parseJson(JSON.stringify(input.payload), { path: 'payload' }) as Record<string, unknown>);
    const event = { kind: input.kind, summary: input.summary, span_id: input.span, payload, proposal_id: input.proposal, tokens: count(input.tokens, '--tokens'), tools: count(input.tools, '--tools') };
    const result = await addEvent(await h.openTraces(ctx, place), h.turnOf(ctx, place), event, now);
    return { result };
  });
}

/** The document `--json` prints for a recording. */
export function recordedResult(r: Recorded): OperationResult {
  const t = r.result.trace;
  return { exitCode: EXIT_OK, document: { ok: true, turn_id: t.turn_id, trace_id: t.trace_id, appended: r.result.appended, breaches: r.result.breaches, usage: t.usage, budgets: t.budgets } };
}
