/**
 * The workspace area as the faces that take results as values call it (the MCP tools). Declared
 * apart from workspace.ts so that the CLI's public types import no library type; the operations
 * load on the first call.
 */
import type { Context } from '../context.js';
import type { OperationResult } from './invoke.js';
import type { BlockWorkspaceInput, CompleteWorkspaceInput, CreateWorkspaceInput, ShowWorkspaceInput, WorkspacesInput } from './workspace-input.js';

export const workspaceOperations = {
  show: async (ctx: Context, input: ShowWorkspaceInput): Promise<OperationResult> => {
    const ops = await import('./workspace.js');
    return ops.showWorkspaceResult(ctx, await ops.readWorkspace(ctx, input));
  },
  list: async (ctx: Context, input: WorkspacesInput): Promise<OperationResult> => {
    const ops = await import('./workspace.js');
    return ops.listWorkspacesResult(ctx, await ops.listWorkspaces(ctx, input));
  },
  create: async (ctx: Context, input: CreateWorkspaceInput): Promise<OperationResult> => {
    const ops = await import('./workspace.js');
    return ops.showWorkspaceResult(ctx, await ops.createTaskWorkspace(ctx, input));
  },
  complete: async (ctx: Context, input: CompleteWorkspaceInput): Promise<OperationResult> => {
    const ops = await import('./workspace.js');
    return ops.showWorkspaceResult(ctx, await ops.completeTaskWorkspace(ctx, input));
  },
  block: async (ctx: Context, input: BlockWorkspaceInput): Promise<OperationResult> => {
    const ops = await import('./workspace.js');
    return ops.showWorkspaceResult(ctx, await ops.blockTaskWorkspace(ctx, input));
  },
};
