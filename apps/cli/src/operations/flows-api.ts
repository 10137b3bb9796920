/**
 * The flows area as the faces that take results as values call it (the MCP tools). Declared apart
 * from flows.ts so that the CLI's public types import no library type; the operations load on the
 * first call.
 */
import type { Context } from '../context.js';
import type { FlowStatusInput } from './flows-input.js';
import type { OperationResult } from './invoke.js';

export const flowsOperations = {
  list: async (ctx: Context): Promise<OperationResult> => {
    const ops = await import('./flows.js');
    return ops.flowListResult(ctx, await ops.listFlows(ctx));
  },
  status: async (ctx: Context, input: FlowStatusInput): Promise<OperationResult> => (await import('./flows.js')).flowStatusResult(ctx, input),
};
