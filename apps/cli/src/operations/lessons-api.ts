/**
 * The lessons area as the faces that take results as values call it (the MCP tools): each
 * operation with its result as the `--json` document and exit code. Declared here, apart from
 * lessons.ts, so that the CLI's public types import no library type; the operations load on the
 * first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { ApplyLessonsInput, ExtractLessonsInput, ListLessonsInput } from './lessons-input.js';

export const lessonsOperations = {
  list: async (ctx: Context, input: ListLessonsInput): Promise<OperationResult> => {
    const ops = await import('./lessons.js');
    return ops.orProblems(ctx, async () => ops.listLessonsResult(ctx, await ops.listLessons(ctx, input)));
  },
  extract: async (ctx: Context, input: ExtractLessonsInput): Promise<OperationResult> => {
    const ops = await import('./lessons.js');
    return ops.orProblems(ctx, async () => ops.extractLessonsResult(ctx, await ops.extractLessons(ctx, input)));
  },
  apply: async (ctx: Context, input: ApplyLessonsInput): Promise<OperationResult> => {
    const ops = await import('./lessons.js');
    return ops.orProblems(ctx, async () => ops.applyLessonsResult(ctx, await ops.applyLessons(ctx, input)));
  },
};
