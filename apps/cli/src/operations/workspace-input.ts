/**
 * The inputs of the workspace area's typed operations (src/operations/workspace.ts), apart from the
 * operations so that their declarations import no library type.
 */

/** Where the campaign's workspaces are (default: the campaign's own directory). */
export interface WorkspacesInput {
  workspaceDir?: string | undefined;
}

export interface ShowWorkspaceInput extends WorkspacesInput {
  /** The campaign task's seq (`001` or `1`). */
  seq: string;
}
