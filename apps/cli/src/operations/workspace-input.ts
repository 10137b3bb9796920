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

/** `workspace create`: a task's workspace, with prior knowledge from a file, from memory, or none. */
export interface CreateWorkspaceInput extends ShowWorkspaceInput {
  /** Who asks: refused when another runner holds the task. */
  runner?: string | undefined;
  /** A JSON file {"failures": [...], "patterns": [...]} injected instead of querying memory. */
  priorKnowledge?: string | undefined;
  /** The memory file queried (default .ratchet/memory.json, when it exists), or false: no memory entries. */
  memory?: string | false | undefined;
}

/** What `workspace complete|block` records besides the delivery or the reason. */
export interface FinishWorkspaceInput extends ShowWorkspaceInput {
  /** Who finishes it: refused when the workspace was made for another runner. */
  runner?: string | undefined;
  /** Prior-knowledge entries the builder used, `NAME:failure` or `NAME:pattern`. */
  utilized?: readonly string[] | undefined;
}

/** `workspace complete`: what was delivered, as text or from a file ("-": standard input). */
export interface CompleteWorkspaceInput extends FinishWorkspaceInput {
  delivered?: string | undefined;
  fromFile?: string | undefined;
}

/** `workspace block`: why the task cannot be done. */
export interface BlockWorkspaceInput extends FinishWorkspaceInput {
  reason: string;
}
