/**
 * The task lifecycle as the faces that take results as values call it (the MCP tools). Declared
 * apart from orchestrator.ts so that the CLI's public types import no library type; the operations
 * load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { TaskSessionInput } from './orchestrator-input.js';

export const orchestratorOperations = {
  status: async (ctx: Context, input: TaskSessionInput): Promise<OperationResult> => (await import('./orchestrator.js')).runStatusResult(ctx, input),
  next: async (ctx: Context, input: TaskSessionInput): Promise<OperationResult> => (await import('./orchestrator.js')).runNextResult(ctx, input),
};
