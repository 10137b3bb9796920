/**
 * The memory area as the faces that take results as values call it (the MCP tools). Declared apart
 * from memory.ts so that the CLI's public types import no library type; the operation loads on the
 * first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type {
  MemoryAddFailureInput,
  MemoryAddPatternInput,
  MemoryFeedbackInput,
  MemoryLinkInput,
  MemoryObserveInput,
  MemoryPruneInput,
  MemoryQueryInput,
  MemoryStatsInput,
} from './memory-input.js';

export const memoryOperations = {
  query: async (ctx: Context, input: MemoryQueryInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryQueryResult(await ops.queryMemory(ctx, input));
  },
  addFailure: async (ctx: Context, input: MemoryAddFailureInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryAddResult(await ops.addMemoryFailure(ctx, input));
  },
  addPattern: async (ctx: Context, input: MemoryAddPatternInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryAddResult(await ops.addMemoryPattern(ctx, input));
  },
  feedback: async (ctx: Context, input: MemoryFeedbackInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryFeedbackResult(await ops.giveMemoryFeedback(ctx, input));
  },
  link: async (ctx: Context, input: MemoryLinkInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryLinkResult(await ops.linkMemory(ctx, input));
  },
  prune: async (ctx: Context, input: MemoryPruneInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryPruneResult(await ops.pruneProjectMemory(ctx, input));
  },
  stats: async (ctx: Context, input: MemoryStatsInput): Promise<OperationResult> => {
    const ops = await import('./memory.js');
    return ops.memoryStatsResult(await ops.memoryStatsOf(ctx, input));
  },
  observe: async (ctx: Context, input: MemoryObserveInput): Promise<OperationResult> => {
    const ops = await import('./memory-observe.js');
    return ops.memoryObserveResult(await ops.observeCampaign(ctx, input));
  },
};
