/**
 * The goals area as the faces that take results as values call it (the MCP tools): each operation
 * with its result as the `--json` document and exit code. Declared apart from goals.ts so that the
 * CLI's public types import no library type; the operations load on the first call.
 */
import type { Context } from '../context.js';
import type { AssessTurnInput } from './goals-input.js';
import type { OperationResult } from './invoke.js';

export const goalsOperations = {
  assess: async (ctx: Context, input: AssessTurnInput): Promise<OperationResult> => {
    const ops = await import('./goals.js');
    return ops.goalsErrors(ctx, async () => ops.assessTurnResult(await ops.assessTurn(ctx, input)));
  },
};
