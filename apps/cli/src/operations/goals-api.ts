/**
 * The goals area as the faces that take results as values call it (the MCP tools): each operation
 * with its result as the `--json` document and exit code. Declared apart from goals.ts so that the
 * CLI's public types import no library type; the operations load on the first call.
 */
import type { Context } from '../context.js';
import type { EndSpanInput, EndTurnInput, StartSpanInput, StartTurnInput, TraceEventInput, AddActionInput, AddGoalInput, AssessTurnInput, CommitTurnInput, PlanStepInput, StartPlanInput, GoalProgressInput, ListGoalsInput, ChangeActionInput, ListActionsInput, UpdateActionInput } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export const goalsOperations = {
  assess: async (ctx: Context, input: AssessTurnInput): Promise<OperationResult> => {
    const ops = await import('./goals.js');
    return ops.goalsErrors(ctx, async () => ops.assessTurnResult(await ops.assessTurn(ctx, input)));
  },
  commitTurn: async (ctx: Context, input: CommitTurnInput): Promise<OperationResult> => {
    const ops = await import('./goals-turn.js');
    return ops.commitTurnResult(await ops.commitTurn(ctx, input));
  },
  startPlan: async (ctx: Context, input: StartPlanInput): Promise<OperationResult> => {
    const ops = await import('./goals-plan.js');
    return ops.startPlanResult(await ops.startPlanRun(ctx, input));
  },
  stepPlan: async (ctx: Context, input: PlanStepInput): Promise<OperationResult> => {
    const ops = await import('./goals-plan.js');
    const r = await ops.stepPlan(ctx, input);
    return ops.planRunResult(r.version, r.plan);
  },
  startTurn: async (ctx: Context, input: StartTurnInput): Promise<OperationResult> => {
    const ops = await import('./goals-trace.js');
    return ops.recordedResult(await ops.startTurnTrace(ctx, input));
  },
  endTurn: async (ctx: Context, input: EndTurnInput): Promise<OperationResult> => {
    const ops = await import('./goals-trace.js');
    return ops.recordedResult(await ops.endTurnTrace(ctx, input));
  },
  startSpan: async (ctx: Context, input: StartSpanInput): Promise<OperationResult> => {
    const ops = await import('./goals-trace.js');
    return ops.recordedResult(await ops.startTraceSpan(ctx, input));
  },
  endSpan: async (ctx: Context, input: EndSpanInput): Promise<OperationResult> => {
    const ops = await import('./goals-trace.js');
    return ops.recordedResult(await ops.endTraceSpan(ctx, input));
  },
  traceEvent: async (ctx: Context, input: TraceEventInput): Promise<OperationResult> => {
    const ops = await import('./goals-trace.js');
    return ops.recordedResult(await ops.addTraceEvent(ctx, input));
  },
  listGoals: async (ctx: Context, input: ListGoalsInput): Promise<OperationResult> => {
    const ops = await import('./goals-goals.js');
    return ops.listGoalsResult(await ops.listGoals(ctx, input));
  },
  addGoal: async (ctx: Context, input: AddGoalInput): Promise<OperationResult> => {
    const ops = await import('./goals-goals.js');
    return ops.goalSavedResult(await ops.addGoal(ctx, input));
  },
  progress: async (ctx: Context, input: GoalProgressInput): Promise<OperationResult> => {
    const ops = await import('./goals-goals.js');
    return ops.goalSavedResult(await ops.goalProgress(ctx, input));
  },
  listActions: async (ctx: Context, input: ListActionsInput): Promise<OperationResult> => {
    const ops = await import('./goals-actions.js');
    return ops.listActionsResult(await ops.listActions(ctx, input));
  },
  addAction: async (ctx: Context, input: AddActionInput): Promise<OperationResult> => {
    const ops = await import('./goals-actions.js');
    return ops.addActionResult(await ops.addAction(ctx, input));
  },
  updateAction: async (ctx: Context, input: UpdateActionInput): Promise<OperationResult> => {
    const ops = await import('./goals-actions.js');
    return ops.updateActionResult(await ops.updateActionFields(ctx, input));
  },
  /** Move, complete, re-type or confirm an action (`actions move|complete|retype|confirm`). */
  changeAction: async (ctx: Context, input: ChangeActionInput): Promise<OperationResult> => {
    const ops = await import('./goals-actions.js');
    return ops.changeActionResult(await ops.changeAction(ctx, input));
  },
};
