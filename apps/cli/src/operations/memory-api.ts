/**
 * The memory area as the faces that take results as values call it (the MCP tools). Declared apart
 * from memory.ts so that the CLI's public types import no library type; the operation loads on the
 * first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { MemoryQueryInput } from './memory-input.js';

export const memoryOperations = {
  query: async (ctx: Context, input: MemoryQueryInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryQueryResult(await ops.queryMemory(ctx, input));
  },
};
