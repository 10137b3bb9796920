/**
 * The edge of the goals, actions and turn commands: commander's arguments and options (register.ts
 * defines them) parsed into the typed inputs of src/operations/goals*.ts. The command modules see
 * only these.
 */
import { parseJson } from '@ratchet/store';
import { CliError } from '../../errors.js';
import type { AddActionInput, AddGoalInput, ChangeActionInput, GoalProgressInput, GoalStatusName, GoalsLocation, ListActionsInput, ListGoalsInput, PlanStepInput, StartPlanInput, TraceLocation, UpdateActionInput, StartTurnInput, EndTurnInput, StartSpanInput, EndSpanInput, TraceEventInput, TraceBudgetsInput, EventKindName } from '../../operations/goals-input.js';
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
