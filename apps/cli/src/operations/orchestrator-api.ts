/**
 * The task lifecycle as the faces that take results as values call it (the MCP tools). Declared
 * apart from orchestrator*.ts so that the CLI's public types import no library type; the operations
 * load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { ResearchPlanInput, RunPlanInput, StepResultInput, TaskCloseInput, TaskSessionInput, TaskStartInput, TaskSubmitInput } from './orchestrator-input.js';

export const orchestratorOperations = {
  status: async (ctx: Context, input: TaskSessionInput): Promise<OperationResult> => (await import('./orchestrator.js')).runStatusResult(ctx, input),
  next: async (ctx: Context, input: TaskSessionInput): Promise<OperationResult> => (await import('./orchestrator.js')).runNextResult(ctx, input),
  start: async (ctx: Context, input: TaskStartInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-lifecycle.js');
    return ops.startTaskResult(ctx, await ops.startTask(ctx, input));
  },
  close: async (ctx: Context, input: TaskCloseInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-close.js');
    return ops.closeTaskResult(ctx, await ops.closeTask(ctx, input));
  },
  submit: async (ctx: Context, input: TaskSubmitInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-lifecycle.js');
    return ops.submitTaskResult(ctx, await ops.submitTask(ctx, input));
  },
  plan: async (ctx: Context, input: RunPlanInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-run.js');
    return ops.submitPlanResult(ctx, await ops.submitPlan(ctx, input));
  },
  done: async (ctx: Context, input: StepResultInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-run.js');
    return ops.reportStepResult(ctx, await ops.reportStep(ctx, input));
  },
  researchPlan: async (ctx: Context, input: ResearchPlanInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-research.js');
    return ops.planResearchResult(ctx, await ops.planResearch(ctx, input));
  },
  researchDone: async (ctx: Context, input: StepResultInput): Promise<OperationResult> => {
    const ops = await import('./orchestrator-research.js');
    return ops.finishResearchResult(ctx, await ops.finishResearch(ctx, input));
  },
};
