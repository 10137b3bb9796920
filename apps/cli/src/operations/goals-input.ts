/**
 * The inputs of the goals area's typed operations (src/operations/goals.ts), apart from the
 * operations so that their declarations import no library type (the CLI's public types carry them).
 */

/** Who an action is for; goals.ts checks at compile time that this is @ratchet/goals' Owner. */
export type OwnerName = 'agent' | 'user';

export interface AssessTurnInput {
  /** Top pending actions overall and per owner (default 10). */
  actions?: number | undefined;
  /** Top goals (default 10). */
  goals?: number | undefined;
  /** Rank what shares words with this text first. */
  query?: string | undefined;
  /** Only this owner's actions. */
  owner?: OwnerName | undefined;
  /** The turn's clock (ms since the epoch); default now. */
  now?: number | undefined;
}

/** Where the goals state and registry are, and who asks (the goals commands' --state, --registry, --as, ...); default: the project's. */
export interface GoalsLocation {
  state?: string | undefined;
  registry?: string | undefined;
  as?: OwnerName | undefined;
  who?: string | undefined;
  agent?: string | undefined;
  org?: string | undefined;
}

/** A goals-state change with optimistic locking: refused (exit 1, nothing written) unless the state is at this version. */
export interface Versioned {
  expectedVersion?: number | undefined;
}

/** `actions list`: pending actions in assessment order, filtered. */
export interface ListActionsInput extends GoalsLocation {
  /** Finished actions too. */
  all?: boolean | undefined;
  owner?: OwnerName | undefined;
  /** Only these statuses (finished ones included). */
  status?: readonly string[] | undefined;
  /** Only these action types. */
  type?: readonly string[] | undefined;
  /** Only actions serving this goal. */
  goal?: string | undefined;
}

/** `actions add`: a pending action of a registry type (an unknown type files a proposal). */
export interface AddActionInput extends GoalsLocation, Versioned {
  type: string;
  title: string;
  id?: string | undefined;
  owner?: OwnerName | undefined;
  priority?: number | undefined;
  effort?: number | undefined;
  /** ISO 8601. */
  due?: string | undefined;
  goal?: string | undefined;
  blocking?: boolean | undefined;
  meta?: Readonly<Record<string, string>> | undefined;
}

/** `actions update`: change only the fields given. */
export interface UpdateActionInput extends GoalsLocation, Versioned {
  id: string;
  title?: string | undefined;
  description?: string | undefined;
  priority?: number | undefined;
  effort?: number | undefined;
  due?: string | undefined;
  goal?: string | undefined;
  blocking?: boolean | undefined;
}

/** `actions move|complete|retype|confirm`: one action's status (move: to `status`). */
export interface ChangeActionInput extends GoalsLocation, Versioned {
  change: 'move' | 'complete' | 'retype' | 'confirm';
  id: string;
  /** move: the target status. */
  status?: string | undefined;
  evidence?: readonly string[] | undefined;
  /** Metadata recorded first, in the same version (a decision's choice). */
  meta?: Readonly<Record<string, string>> | undefined;
}

/** The status a goal can have. */
export type GoalStatusName = 'proposed' | 'active' | 'paused' | 'achieved' | 'abandoned';

/** `goals list`: active and proposed goals (all with `all`), highest priority first. */
export interface ListGoalsInput extends GoalsLocation {
  all?: boolean | undefined;
}

/** `goals add`: a new goal, or (with the id of one) a change of only the fields given. */
export interface AddGoalInput extends GoalsLocation, Versioned {
  /** Required for a new goal. */
  title?: string | undefined;
  id?: string | undefined;
  priority?: number | undefined;
  description?: string | undefined;
  parent?: string | undefined;
  horizonDays?: number | undefined;
  horizonSteps?: number | undefined;
  /** Measures and their current values (with an id: these set, the others kept). */
  metrics?: Readonly<Record<string, number>> | undefined;
  /** With an id the list given replaces the old one. */
  constraints?: readonly string[] | undefined;
  status?: GoalStatusName | undefined;
}

/** `goals progress`: set or add progress (0 to 1), with evidence. */
export interface GoalProgressInput extends GoalsLocation, Versioned {
  id: string;
  set?: number | undefined;
  delta?: number | undefined;
  evidence?: readonly string[] | undefined;
}

/** Where the turn trace is (--traces, --trace-config) and the clock (--now, ISO 8601); default: the project's, now. */
export interface TraceLocation {
  traces?: string | undefined;
  traceConfig?: string | undefined;
  now?: string | undefined;
}

/**
 * What the goals commands' shared helpers read (commands/goals/shared.ts, trace-log.ts): where the
 * state, registry and turn trace are, who acts, the clock, and the turn a recording goes to. Every
 * operation input that extends GoalsLocation or TraceLocation is one, and is passed as it is.
 */
export interface GoalsPlace extends GoalsLocation, TraceLocation {
  /** The turn recorded into (default: $RATCHET_TURN, else the turn started last). */
  turn?: string | undefined;
}

/** `turn commit`: a turn's deltas, applied once (a replay of the same turn_id changes nothing). */
export interface CommitTurnInput extends GoalsLocation, TraceLocation, Versioned {
  /** The commit document: {turn_id, expected_version?, progress, new_actions, completed_actions, story_updates}. */
  commit: unknown;
  /** Where the commit came from, as problems in it are placed (`turn.json:12:7`); default `commit`. */
  file?: string | undefined;
  /** The line and column of a JSON pointer in that source; default: in the commit as compact JSON. */
  locate?: ((pointer: string) => { line: number; column: number } | undefined) | undefined;
}

/** `goals plan start`: run a plan that checks (its steps recorded in the goals state). */
export interface StartPlanInput extends GoalsLocation, TraceLocation, Versioned {
  /** The plan file (Markdown), inside the project; or give `text`. */
  file?: string | undefined;
  /** The plan itself. */
  text?: string | undefined;
  /** How `text` is named in the plan run and its problems (default `text`). */
  source?: string | undefined;
  /** Plan id (default pl1, pl2, ...). */
  id?: string | undefined;
  goal?: string | undefined;
  turn?: string | undefined;
}

export type PlanStepEvent = 'start' | 'succeed' | 'fail';

/** `goals plan step`: a step started, succeeded (with evidence) or failed (with a reason). */
export interface PlanStepInput extends GoalsLocation, TraceLocation, Versioned {
  plan: string;
  step: number;
  event: PlanStepEvent;
  evidence?: readonly string[] | undefined;
  note?: string | undefined;
  reason?: string | undefined;
  regenerate?: boolean | undefined;
  /** The turn whose trace records the step (default: $RATCHET_TURN, else the open turn started last). */
  turn?: string | undefined;
}

/** Budgets of a turn or a span; a turn falls back to .ratchet/trace.config.json's for each not given. */
export interface TraceBudgetsInput {
  tokens?: number | undefined;
  tools?: number | undefined;
  timeMs?: number | undefined;
}

/** `turn start`: a turn's trace with its budgets, under the registry in use now (pinned). */
export interface StartTurnInput extends GoalsLocation, TraceLocation, TraceBudgetsInput {
  /** Default: turn-<base36 time>. */
  turn?: string | undefined;
}

/** `turn end`: spans still open end as errors; a summary adds a Summary event. */
export interface EndTurnInput extends TraceLocation {
  /** Default: $RATCHET_TURN, else the turn started last. */
  turn?: string | undefined;
  summary?: string | undefined;
}

/** `turn trace span start`. */
export interface StartSpanInput extends TraceLocation, TraceBudgetsInput {
  span: string;
  /** Default: harness. */
  component?: string | undefined;
  parent?: string | undefined;
  dependsOn?: readonly string[] | undefined;
  turn?: string | undefined;
}

/** `turn trace span end`: what the span used (added to its usage). */
export interface EndSpanInput extends TraceLocation {
  span: string;
  /** Default ok. */
  status?: 'ok' | 'error' | undefined;
  tokens?: number | undefined;
  tools?: number | undefined;
  turn?: string | undefined;
}

export type EventKindName = 'Decision' | 'ToolInvocation' | 'Observation' | 'Error' | 'Policy' | 'Summary';

/** `turn trace event`: an event in the turn (in an open span with `span`). */
export interface TraceEventInput extends TraceLocation {
  kind: EventKindName;
  summary: string;
  span?: string | undefined;
  payload?: Readonly<Record<string, unknown>> | undefined;
  proposal?: string | undefined;
  tokens?: number | undefined;
  tools?: number | undefined;
  turn?: string | undefined;
}
