/**
 * The goals themselves as typed operations (`ratchet goals list|add|progress`; the MCP tools
 * `goals_list`, `goals_add`, `goals_progress`): what each finds or changes, and the document
 * `--json` prints for it.
 */
import { updateProgress, upsertGoal, type Goal } from '@ratchet/goals';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import type { AddGoalInput, GoalProgressInput, GoalStatusName, ListGoalsInput, GoalsPlace } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export type { AddGoalInput, GoalProgressInput, ListGoalsInput } from './goals-input.js';

// goals-input.ts's status names are the library's, exactly.
const sameStatuses: [Exclude<Goal['status'], GoalStatusName>] extends [never] ? ([Exclude<GoalStatusName, Goal['status']>] extends [never] ? true : never) : never = true;
void sameStatuses;

export interface GoalList {
  version: number;
  goals: Goal[];
}

export interface GoalSaved {
  version: number;
  goal: Goal;
  /** False when the goal was already as asked (no new version). */
  changed: boolean;
}

/** Active and proposed goals (every goal with `all`), highest priority first, then by id. */
export async function listGoals(ctx: Context, input: ListGoalsInput): Promise<GoalList> {
  const { mapErrors, openState } = await import('../commands/goals/shared.js');
  const store = await openState(ctx, input);
  return mapErrors(ctx, async () => {
    const state = await store.read();
    const goals = state.goals.filter((g) => input.all === true || g.status === 'active' || g.status === 'proposed').sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : 1));
    return { version: state.version, goals };
  });
}

export function listGoalsResult(list: GoalList): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: list.version, goals: list.goals } };
}

/** A metric name is a plain key: it starts with a letter (never `__proto__`). */
const METRIC_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

function metricsOf(values: Readonly<Record<string, number>> | undefined): Record<string, number> | undefined {
  if (values === undefined) return undefined;
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!METRIC_NAME.test(name)) throw new CliError(`--metric ${name}: a metric name starts with a letter and uses letters, digits, "_", ".", ":" or "-"`);
    if (!Number.isFinite(value)) throw new CliError(`--metric ${name}=${String(value)}: the value must be a number`);
    out[name] = value;
  }
  return out;
}

/** Add a goal, or change only the fields given of the goal `id` names (the other metrics and horizon half kept). */
export async function addGoal(ctx: Context, input: AddGoalInput): Promise<GoalSaved> {
  const { actorOf, mapErrors, openState } = await import('../commands/goals/shared.js');
  const place: GoalsPlace = input;
  const store = await openState(ctx, place);
  const meta = { actor: actorOf(ctx, place), expected_version: input.expectedVersion };
  return mapErrors(ctx, async () => {
    if (input.title === undefined && input.id === undefined) throw new CliError('goals add: missing <title> (or --id of a goal to update)');
    const { horizonDays: days, horizonSteps: steps, id } = input;
    const metrics = metricsOf(input.metrics);
    const r = await store.mutate({ ...meta, op: 'goal.upsert' }, (tx) => {
      const existing = id === undefined ? undefined : tx.find('goal', id);
      return upsertGoal(tx, {
        id,
        title: input.title,
        priority: input.priority,
        description: input.description,
        parent_goal_id: input.parent,
        status: input.status,
        horizon: days === undefined && steps === undefined ? undefined : { ...existing?.horizon, ...(days === undefined ? {} : { days }), ...(steps === undefined ? {} : { steps }) },
        metrics: metrics === undefined ? undefined : { ...existing?.metrics, ...metrics },
        constraints: input.constraints === undefined ? undefined : [...input.constraints],
      });
    });
    return { version: r.version, goal: r.result, changed: r.entry !== undefined };
  });
}

/** Set (`set`) or add (`delta`) progress on a goal, with evidence; at least one of the three. */
export async function goalProgress(ctx: Context, input: GoalProgressInput): Promise<GoalSaved> {
  const { actorOf, mapErrors, openState } = await import('../commands/goals/shared.js');
  const place: GoalsPlace = input;
  const store = await openState(ctx, place);
  const meta = { actor: actorOf(ctx, place), expected_version: input.expectedVersion };
  return mapErrors(ctx, async () => {
    const { set, delta, evidence } = input;
    if (set === undefined && delta === undefined && evidence === undefined) throw new CliError('goals progress: give --set, --delta or --evidence');
    const r = await store.mutate({ ...meta, op: 'goal.progress' }, (tx) => updateProgress(tx, { goal_id: input.id, progress: set, delta, evidence_refs: evidence === undefined ? undefined : [...evidence] }));
    return { version: r.version, goal: r.result, changed: r.entry !== undefined };
  });
}

export function goalSavedResult(saved: GoalSaved): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, version: saved.version, goal: saved.goal } };
}
