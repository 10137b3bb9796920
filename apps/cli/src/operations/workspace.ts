/**
 * The workspace area's read operations as typed operations (`ratchet workspace show|list`; the MCP
 * tools `workspace_show`, `workspace_list`): what they read, and the document `--json` prints for
 * it with the command's exit code. The commands render the same records for people.
 */
import { readCampaignWorkspaces, showWorkspace, type WorkspaceRecord } from '@ratchet/campaign-dag';
import { campaignOptionsWithBackend, guard, seqArg } from '../commands/campaign/shared.js';
import type { Context } from '../context.js';
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { displayPath } from '../paths.js';
import type { OperationResult } from './invoke.js';
import type { ShowWorkspaceInput, WorkspacesInput } from './workspace-input.js';

export type { ShowWorkspaceInput, WorkspacesInput } from './workspace-input.js';

export interface ShownWorkspace {
  /** The workspace file (absolute). */
  path: string;
  record: WorkspaceRecord;
}

/** One campaign task's workspace: objective, delta, verify, lineage, prior knowledge. */
export async function readWorkspace(ctx: Context, input: ShowWorkspaceInput): Promise<ShownWorkspace> {
  const seq = seqArg(input.seq);
  return guard(ctx, async () => showWorkspace(ctx.cwd, seq, await campaignOptionsWithBackend(ctx, { workspaceDir: input.workspaceDir })));
}

export function showWorkspaceResult(ctx: Context, shown: ShownWorkspace): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, path: displayPath(ctx, shown.path), workspace: shown.record } };
}

export type WorkspaceList = Awaited<ReturnType<typeof readCampaignWorkspaces>>;

/** The active campaign's workspaces, and the files skipped or unreadable. */
export async function listWorkspaces(ctx: Context, input: WorkspacesInput): Promise<WorkspaceList> {
  return guard(ctx, async () => readCampaignWorkspaces(ctx.cwd, await campaignOptionsWithBackend(ctx, { workspaceDir: input.workspaceDir })));
}

/** A file that does not parse is the user's to fix: exit 2, not "no workspaces yet" with exit 0. */
export function listWorkspacesResult(ctx: Context, list: WorkspaceList): OperationResult {
  const unreadable = list.skipped.filter((s) => s.kind === 'unreadable');
  return {
    exitCode: unreadable.length === 0 ? EXIT_OK : EXIT_USAGE,
    document: { ok: unreadable.length === 0, workspaces: list.workspaces.map((w) => ({ ...w, file: displayPath(ctx, w.file) })), skipped: list.skipped.map((s) => ({ ...s, path: displayPath(ctx, s.path) })) },
  };
}
