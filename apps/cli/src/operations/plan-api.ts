/**
 * The plan checks and registry as the faces that take results as values call them (the MCP tools).
 * Declared apart from plan.ts so that the CLI's public types import no library type; the operations
 * load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { DeregisterPlanInput, PlanCheckInput, RegisterPlanInput } from './plan-input.js';

export const planOperations = {
  lint: async (ctx: Context, input: PlanCheckInput): Promise<OperationResult> => {
    const ops = await import('./plan.js');
    return ops.lintPlanResult(ctx, await ops.lintPlanFile(ctx, input));
  },
  analyze: async (ctx: Context, input: PlanCheckInput): Promise<OperationResult> => {
    const ops = await import('./plan.js');
    return ops.analyzePlanResult(ctx, await ops.analyzePlanFile(ctx, input));
  },
  register: async (ctx: Context, input: RegisterPlanInput): Promise<OperationResult> => {
    const ops = await import('./plan.js');
    return ops.registryEntryResult(ctx, await ops.registerPlanName(ctx, input));
  },
  deregister: async (ctx: Context, input: DeregisterPlanInput): Promise<OperationResult> => {
    const ops = await import('./plan.js');
    return ops.registryEntryResult(ctx, await ops.deregisterPlanName(ctx, input));
  },
};
