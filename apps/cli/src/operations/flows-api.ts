/**
 * The flows area as the faces that take results as values call it (the MCP tools). Declared apart
 * from flows.ts so that the CLI's public types import no library type; the operations load on the
 * first call.
 */
import type { Context } from '../context.js';
import type { FlowAdvanceInput, FlowBranchInput, FlowHaltInput, FlowStartInput, FlowStatusInput } from './flows-input.js';
import type { OperationResult } from './invoke.js';

export const flowsOperations = {
  list: async (ctx: Context): Promise<OperationResult> => {
    const ops = await import('./flows.js');
    return ops.flowListResult(ctx, await ops.listFlows(ctx));
  },
  status: async (ctx: Context, input: FlowStatusInput): Promise<OperationResult> => (await import('./flows.js')).flowStatusResult(ctx, input),
  start: async (ctx: Context, input: FlowStartInput): Promise<OperationResult> => {
    const ops = await import('./flows.js');
    return ops.flowViewResult(ctx, await ops.startFlowSession(ctx, input));
  },
  advance: async (ctx: Context, input: FlowAdvanceInput): Promise<OperationResult> => {
    const ops = await import('./flows.js');
    return ops.flowViewResult(ctx, await ops.advanceFlowSession(ctx, input));
  },
  completeBranch: async (ctx: Context, input: FlowBranchInput): Promise<OperationResult> => {
    const ops = await import('./flows.js');
    return ops.flowViewResult(ctx, await ops.completeFlowBranch(ctx, input));
  },
  halt: async (ctx: Context, input: FlowHaltInput): Promise<OperationResult> => {
    const ops = await import('./flows.js');
    return ops.flowViewResult(ctx, await ops.haltFlowSession(ctx, input));
  },
};
