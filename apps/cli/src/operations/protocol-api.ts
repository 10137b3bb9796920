/**
 * The protocol area as the faces that take results as values call it (the MCP tools). Declared
 * apart from protocol.ts so that the CLI's public types import no library type; the operations
 * load on the first call. A protocol problem is its placed-problems document and exit 2, as the
 * command prints it.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { CompileProtocolsInput, UpdateProtocolInput } from './protocol-input.js';

export const protocolOperations = {
  compile: async (ctx: Context, input: CompileProtocolsInput): Promise<OperationResult> => {
    // orProblems (lessons.ts) turns a placed protocol problem into its document, as for lessons apply.
    const [ops, { orProblems }] = await Promise.all([import('./protocol.js'), import('./lessons.js')]);
    return orProblems(ctx, async () => ops.compileProtocolsResult(ctx, await ops.compileProtocolTargets(ctx, input)));
  },
  update: async (ctx: Context, input: UpdateProtocolInput): Promise<OperationResult> => {
    // orProblems (lessons.ts) turns a placed protocol problem into its document, as for lessons apply.
    const [ops, { orProblems }] = await Promise.all([import('./protocol.js'), import('./lessons.js')]);
    return orProblems(ctx, async () => ops.updateProtocolResult(ctx, await ops.updateProtocolSource(ctx, input)));
  },
};
