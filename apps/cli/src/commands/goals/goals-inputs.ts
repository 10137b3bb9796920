/**
 * The edge of the goals, actions and turn commands: commander's arguments and options (register.ts
 * defines them) parsed into the typed inputs of src/operations/goals*.ts. The command modules see
 * only these.
 */
import type { ScopedKind } from '@ratchet/goals';
import { parseJson } from '@ratchet/store';
import { CliError } from '../../errors.js';
import type { OwnerName, Versioned, AddActionInput, AddGoalInput, ChangeActionInput, GoalProgressInput, GoalStatusName, GoalsLocation, ListActionsInput, ListGoalsInput, PlanStepInput, StartPlanInput, TraceLocation, UpdateActionInput, StartTurnInput, EndTurnInput, StartSpanInput, EndSpanInput, TraceEventInput, TraceBudgetsInput, EventKindName } from '../../operations/goals-input.js';
import { argument, choiceOption, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';
import { parsePairs } from '../../pairs.js';
import { intOption, numberOption } from './shared.js';

export const OWNERS = ['agent', 'user'] as const;

/** --state, --registry, --as, --who, --agent, --org. */
export function locationInput(options: OptionBag): GoalsLocation {
  return {
    state: stringOption(options, 'state'),
    registry: stringOption(options, 'registry'),
    as: choiceOption(options, 'as', OWNERS),
    who: stringOption(options, 'who'),
    agent: stringOption(options, 'agent'),
    org: stringOption(options, 'org'),
  };
}

/** --traces, --trace-config, --now. */
export function traceInput(options: OptionBag): TraceLocation {
  return { traces: stringOption(options, 'traces'), traceConfig: stringOption(options, 'traceConfig'), now: stringOption(options, 'now') };
}

/** --expected-version, a whole number >= 0. */
export function expectedVersionInput(options: OptionBag): number | undefined {
  return intOption(stringOption(options, 'expectedVersion'), '--expected-version');
}

/** `--status a,b` / `--type x,y`: repeated or comma separated. */
function listOf(options: OptionBag, key: string): string[] | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  const items = typeof value === 'string' ? [value] : stringsOption(options, key);
  return items?.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}

/** A number option (--priority 3), checked. */
function number(options: OptionBag, key: string, flag: string): number | undefined {
  return numberOption(stringOption(options, key), flag);
}

/** `--blocking` / `--no-blocking` (commander sets false), or neither. */
function toggle(options: OptionBag, key: string): boolean | undefined {
  const value = options[key];
  if (value === undefined || typeof value === 'boolean') return value;
  throw new CliError(`--${key} takes no value`);
}

export function listActionsInput(_args: readonly string[], options: OptionBag): ListActionsInput {
  return { ...locationInput(options), all: flagOption(options, 'all'), owner: choiceOption(options, 'owner', OWNERS), status: listOf(options, 'status'), type: listOf(options, 'type'), goal: stringOption(options, 'goal') };
}

export function addActionInput(args: readonly string[], options: OptionBag): AddActionInput {
  return {
    ...locationInput(options),
    expectedVersion: expectedVersionInput(options),
    type: argument(args, 0, 'type'),
    title: argument(args, 1, 'title'),
    id: stringOption(options, 'id'),
    owner: choiceOption(options, 'owner', OWNERS),
    priority: number(options, 'priority', '--priority'),
    effort: number(options, 'effort', '--effort'),
    due: stringOption(options, 'due'),
    goal: stringOption(options, 'goal'),
    blocking: flagOption(options, 'blocking'),
    meta: parsePairs(stringsOption(options, 'meta'), '--meta'),
  };
}

export function updateActionInput(args: readonly string[], options: OptionBag): UpdateActionInput {
  return {
    ...locationInput(options),
    expectedVersion: expectedVersionInput(options),
    id: argument(args, 0, 'id'),
    title: stringOption(options, 'title'),
    description: stringOption(options, 'description'),
    priority: number(options, 'priority', '--priority'),
    effort: number(options, 'effort', '--effort'),
    due: stringOption(options, 'due'),
    goal: stringOption(options, 'goal'),
    blocking: toggle(options, 'blocking'),
  };
}

export function changeActionInput(change: ChangeActionInput['change'], args: readonly string[], options: OptionBag): ChangeActionInput {
  return {
    ...locationInput(options),
    expectedVersion: expectedVersionInput(options),
    change,
    id: argument(args, 0, 'id'),
    status: change === 'move' ? argument(args, 1, 'status') : undefined,
    evidence: stringsOption(options, 'evidence'),
    meta: parsePairs(stringsOption(options, 'meta'), '--meta'),
  };
}

const GOAL_STATUSES = ['proposed', 'active', 'paused', 'achieved', 'abandoned'] as const satisfies readonly GoalStatusName[];

export function listGoalsInput(_args: readonly string[], options: OptionBag): ListGoalsInput {
  return { ...locationInput(options), all: flagOption(options, 'all') };
}

/** `--metric name=value` pairs: each value a number (the operation checks the names). */
function metricsInput(options: OptionBag): Record<string, number> | undefined {
  const pairs = stringsOption(options, 'metric');
  if (pairs === undefined) return undefined;
  const out = Object.create(null) as Record<string, number>;
  for (const [name, text] of Object.entries(parsePairs(pairs, '--metric'))) {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) throw new CliError(`--metric ${name}=${text}: the value must be a number`);
    out[name] = value;
  }
  return out;
}

export function addGoalInput(args: readonly string[], options: OptionBag): AddGoalInput {
  return {
    ...locationInput(options),
    expectedVersion: expectedVersionInput(options),
    title: args[0],
    id: stringOption(options, 'id'),
    priority: number(options, 'priority', '--priority'),
    description: stringOption(options, 'description'),
    parent: stringOption(options, 'parent'),
    horizonDays: number(options, 'horizonDays', '--horizon-days'),
    horizonSteps: number(options, 'horizonSteps', '--horizon-steps'),
    metrics: metricsInput(options),
    constraints: stringsOption(options, 'constraint'),
    status: choiceOption(options, 'status', GOAL_STATUSES),
  };
}

export function goalProgressInput(args: readonly string[], options: OptionBag): GoalProgressInput {
  return {
    ...locationInput(options),
    expectedVersion: expectedVersionInput(options),
    id: argument(args, 0, 'id'),
    set: number(options, 'set', '--set'),
    delta: number(options, 'delta', '--delta'),
    evidence: stringsOption(options, 'evidence'),
  };
}

/** `goals history`: the audit trail after version `since` (default 0). */
export interface HistoryInput extends GoalsLocation {
  since: number;
}

export function historyInput(_args: readonly string[], options: OptionBag): HistoryInput {
  return { ...locationInput(options), since: intOption(stringOption(options, 'since'), '--since') ?? 0 };
}

/** `goals revert <version>`: a new version as the state was at `to`. */
export interface RevertInput extends GoalsLocation, Versioned {
  to: number;
}

export function revertInput(args: readonly string[], options: OptionBag): RevertInput {
  if (args[0] === undefined) throw new CliError('goals revert: missing <version>');
  return { ...locationInput(options), expectedVersion: expectedVersionInput(options), to: intOption(args[0], 'version')! };
}

/** `goals plan start`'s options (the plan itself, a file or standard input, is read by the command). */
export function startPlanInput(options: OptionBag): StartPlanInput {
  return { ...locationInput(options), ...traceInput(options), expectedVersion: expectedVersionInput(options), id: stringOption(options, 'id'), goal: stringOption(options, 'goal'), turn: stringOption(options, 'turn') };
}

const PLAN_EVENTS = ['start', 'succeed', 'fail'] as const;

export function planStepInput(args: readonly string[], options: OptionBag): PlanStepInput {
  const [plan, numberText, event] = args;
  if (plan === undefined || numberText === undefined || event === undefined) throw new CliError('goals plan step: give <plan> <step> <start|succeed|fail>');
  const step = intOption(numberText, '<step>', 1)!;
  const chosen = PLAN_EVENTS.find((e) => e === event);
  if (chosen === undefined) throw new CliError(`goals plan step: the event is start, succeed or fail, not ${JSON.stringify(event)}`);
  return {
    ...locationInput(options),
    ...traceInput(options),
    expectedVersion: expectedVersionInput(options),
    plan,
    step,
    event: chosen,
    evidence: stringsOption(options, 'evidence'),
    note: stringOption(options, 'note'),
    reason: stringOption(options, 'reason'),
    regenerate: flagOption(options, 'regenerate'),
    turn: stringOption(options, 'turn'),
  };
}

/** A count option (--tokens 5000): a whole number >= 0. */
function countInput(options: OptionBag, key: string, flag: string): number | undefined {
  return intOption(stringOption(options, key), flag, 0);
}

function budgetsInput(options: OptionBag): TraceBudgetsInput {
  return { tokens: countInput(options, 'tokens', '--tokens'), tools: countInput(options, 'tools', '--tools'), timeMs: countInput(options, 'timeMs', '--time-ms') };
}

export function startTurnInput(args: readonly string[], options: OptionBag): StartTurnInput {
  return { ...locationInput(options), ...traceInput(options), ...budgetsInput(options), turn: args[0] };
}

export function endTurnInput(args: readonly string[], options: OptionBag): EndTurnInput {
  return { ...traceInput(options), turn: args[0] ?? stringOption(options, 'turn'), summary: stringOption(options, 'summary') };
}

export function startSpanInput(span: string, options: OptionBag): StartSpanInput {
  return {
    ...traceInput(options),
    ...budgetsInput(options),
    span,
    component: stringOption(options, 'component'),
    parent: stringOption(options, 'parent'),
    dependsOn: stringsOption(options, 'dependsOn'),
    turn: stringOption(options, 'turn'),
  };
}

export function endSpanInput(span: string, options: OptionBag): EndSpanInput {
  return {
    ...traceInput(options),
    span,
    status: choiceOption(options, 'status', ['ok', 'error'] as const),
    tokens: countInput(options, 'tokens', '--tokens'),
    tools: countInput(options, 'tools', '--tools'),
    turn: stringOption(options, 'turn'),
  };
}

const EVENT_KINDS = ['Decision', 'ToolInvocation', 'Observation', 'Error', 'Policy', 'Summary'] as const satisfies readonly EventKindName[];

/** --payload: a JSON object, through the store's guarded parser (no __proto__ keys). */
function payloadInput(options: OptionBag): Record<string, unknown> | undefined {
  const text = stringOption(options, 'payload');
  if (text === undefined) return undefined;
  const value = parseJson(text, { path: '--payload' });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError('--payload must be a JSON object');
  return { ...value };
}

export function traceEventInput(args: readonly string[], options: OptionBag): TraceEventInput {
  const [kind, summary] = args;
  const chosen = EVENT_KINDS.find((k) => k === kind);
  if (chosen === undefined) throw new CliError(`turn trace event: <kind> is one of ${EVENT_KINDS.join(', ')}, not ${JSON.stringify(kind)}`);
  if (summary === undefined || summary.trim() === '') throw new CliError('turn trace event: give a <summary>');
  return {
    ...traceInput(options),
    kind: chosen,
    summary,
    span: stringOption(options, 'span'),
    payload: payloadInput(options),
    proposal: stringOption(options, 'proposal'),
    tokens: countInput(options, 'tokens', '--tokens'),
    tools: countInput(options, 'tools', '--tools'),
    turn: stringOption(options, 'turn'),
  };
}

// ---- the commands without an operation (no MCP tool): their inputs are the commands' own --------

/** `goals share <kind> <id>`: grant (or withdraw) another agent's or org's access to an item. */
export interface ShareInput extends GoalsLocation, Versioned {
  kind: ScopedKind;
  id: string;
  agentGrant?: string | undefined;
  orgGrant?: string | undefined;
  access: 'read' | 'write' | 'none';
}

const SCOPED_KINDS = ['goal', 'action', 'observation'] as const satisfies readonly ScopedKind[];
const ACCESS = ['read', 'write', 'none'] as const;

export function shareInput(args: readonly string[], options: OptionBag): ShareInput {
  const [kindText, id] = args;
  const kind = SCOPED_KINDS.find((k) => k === kindText);
  if (kind === undefined) throw new CliError(`goals share: <kind> must be one of ${SCOPED_KINDS.join(', ')}, got ${JSON.stringify(kindText)}`);
  if (id === undefined) throw new CliError('goals share: missing <id>');
  const agentGrant = stringOption(options, 'agentGrant');
  const orgGrant = stringOption(options, 'orgGrant');
  if (agentGrant === undefined && orgGrant === undefined) throw new CliError('goals share: give --agent-grant <id> and/or --org-grant <id>');
  // Mandatory with these choices in register.ts; checked again here.
  const access = choiceOption(options, 'access', ACCESS);
  if (access === undefined) throw new CliError('goals share: give --access read, write or none');
  return { ...locationInput(options), expectedVersion: expectedVersionInput(options), kind, id, agentGrant, orgGrant, access };
}

/** `goals context`: the planner's inputs, bounded. */
export interface ContextInput extends GoalsLocation {
  now?: string | undefined;
  /** A query that is only blanks is none. */
  query?: string | undefined;
  goals?: number | undefined;
  /** Pending actions per owner. */
  limit?: number | undefined;
  questions?: number | undefined;
  /** Characters of output, >= 1. */
  budget?: number | undefined;
  /** The memory file (inside the project); false with --no-memory. */
  memory: string | false | undefined;
}

export function contextInput(_args: readonly string[], options: OptionBag): ContextInput {
  const query = stringOption(options, 'query');
  return {
    ...locationInput(options),
    now: stringOption(options, 'now'),
    query: query !== undefined && query.trim() !== '' ? query : undefined,
    goals: intOption(stringOption(options, 'goals'), '--goals', 0),
    limit: intOption(stringOption(options, 'limit'), '--limit', 0),
    questions: intOption(stringOption(options, 'questions'), '--questions', 0),
    budget: intOption(stringOption(options, 'budget'), '--budget', 1),
    // --no-memory sets false; --memory <file> a string.
    memory: options.memory === false ? false : stringOption(options, 'memory'),
  };
}

/** An ISO 8601 time option as ms since the epoch, checked. */
function timeInput(options: OptionBag, key: string, flag: string): number | undefined {
  const given = stringOption(options, key);
  if (given === undefined) return undefined;
  const t = Date.parse(given);
  if (Number.isNaN(t)) throw new CliError(`${flag} ${given}: not an ISO 8601 time`);
  return t;
}

/** `goals compact`: the audit trail into summaries (the user's). */
export interface CompactInput extends GoalsLocation, Versioned {
  keep?: number | undefined;
  /** Only entries written before this time (ms since the epoch). */
  before?: number | undefined;
  revertPoints?: number | undefined;
}

export function compactInput(_args: readonly string[], options: OptionBag): CompactInput {
  const keep = intOption(stringOption(options, 'keep'), '--keep');
  const revertPoints = intOption(stringOption(options, 'revertPoints'), '--revert-points');
  return { ...locationInput(options), expectedVersion: expectedVersionInput(options), keep, revertPoints, before: timeInput(options, 'before', '--before') };
}

/** `actions stats`: per-type figures. */
export interface StatsInput extends GoalsLocation {
  now?: string | undefined;
  /** Only what happened at or after this time (ms since the epoch). */
  since?: number | undefined;
}

export function statsInput(_args: readonly string[], options: OptionBag): StatsInput {
  return { ...locationInput(options), since: timeInput(options, 'since', '--since'), now: stringOption(options, 'now') };
}

/** `turn assess`: what the turn should look at (the assessment's own input, operations/goals.ts, is made from it). */
export interface TurnAssessInput extends GoalsLocation {
  now?: string | undefined;
  /** Actions, overall and per owner (>= 1). */
  limit?: number | undefined;
  goals?: number | undefined;
  query?: string | undefined;
  owner?: OwnerName | undefined;
}

export function turnAssessInput(_args: readonly string[], options: OptionBag): TurnAssessInput {
  return {
    ...locationInput(options),
    now: stringOption(options, 'now'),
    owner: choiceOption(options, 'owner', OWNERS),
    limit: intOption(stringOption(options, 'limit'), '--limit', 1),
    goals: intOption(stringOption(options, 'goals'), '--goals', 0),
    query: stringOption(options, 'query'),
  };
}

/** `turn commit <file>`: the commit file ("-": standard input), read by the command. */
export interface TurnCommitInput extends GoalsLocation, TraceLocation, Versioned {
  file: string;
}

export function turnCommitInput(args: readonly string[], options: OptionBag): TurnCommitInput {
  const file = args[0];
  if (file === undefined) throw new CliError('turn commit: missing <file>');
  return { ...locationInput(options), ...traceInput(options), expectedVersion: expectedVersionInput(options), file };
}

/** `turn trace show|replay [turn]`: the turn named (the argument, else --turn; unnamed: $RATCHET_TURN, else the last). */
export interface TraceReadInput extends TraceLocation {
  view: 'show' | 'replay';
  turn?: string | undefined;
}

export function traceReadInput(args: readonly string[], options: OptionBag): TraceReadInput {
  const [view, turn] = args;
  if (view !== 'show' && view !== 'replay') throw new CliError(`turn trace: unknown command ${JSON.stringify(view)}`);
  return { ...traceInput(options), view, turn: turn ?? stringOption(options, 'turn') };
}
