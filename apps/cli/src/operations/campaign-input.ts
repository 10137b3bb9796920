/**
 * The inputs of the campaign area's typed operations (src/operations/campaign.ts), apart from the
 * operations so that their declarations import no library type.
 */

/** A task's statuses (campaign-dag's TASK_STATUSES; operations/campaign.ts checks they agree). */
export const TASK_STATUS_NAMES = ['pending', 'in_progress', 'complete', 'blocked'] as const;
export type TaskStatusName = (typeof TASK_STATUS_NAMES)[number];

/** The read and cascade operations (status, cascade-status, waves, propagate-blocks) take nothing. */
export type CampaignInput = Record<string, never>;

/** `campaign create`. */
export interface CreateCampaignInput {
  objective: string;
  /** The framework the tasks use (find-similar compares campaigns of the same framework only). */
  framework?: string | undefined;
}

/** `campaign add-tasks`: the plan from a file, standard input, or (a face that has it as a value) the plan itself. */
export interface AddTasksInput {
  /**
   * A file, standard input (refused on a terminal unless `evenFromTerminal`: "-" was given, else
   * an agent would wait forever), or the plan as a value, read as if it came on standard input.
   */
  plan: { file: string } | { stdin: true; evenFromTerminal?: boolean | undefined } | { value: unknown };
}

/** Where a plan named as on the command line comes from: a file, or standard input (none, or "-"). Every face's edge uses it. */
export function planSource(file: string | undefined): AddTasksInput['plan'] {
  if (file === undefined) return { stdin: true };
  return file === '-' ? { stdin: true, evenFromTerminal: true } : { file };
}

/** `campaign ready`: list the ready tasks, or with `claim` take the first for that runner. */
export interface CampaignReadyInput {
  /** The runner that claims one ready task. */
  claim?: string | undefined;
  /** With `claim`: the lease length (30s, 15m, 2h); without it the claim never expires. */
  lease?: string | undefined;
}

/** `campaign heartbeat`: renew RUNNER's leased claims. */
export interface HeartbeatInput {
  runner: string;
  /** The new lease from now (default 15m). */
  lease?: string | undefined;
}

/** `campaign update-task`. */
export interface UpdateTaskInput {
  /** The task's seq (`001` or `1`). */
  seq: string;
  status: TaskStatusName;
  reason?: string | undefined;
  /** Who reports it: a claimed task changes only by its holder. */
  runner?: string | undefined;
  /** The user overrides the claim (`--as user`; refused where RATCHET_ACTOR=agent). */
  asUser?: boolean | undefined;
}

/** `campaign phase`: show the phase, or fire `explored` (EXPLORE -> PLAN). */
export interface CampaignPhaseInput {
  event?: 'explored' | undefined;
  reason?: string | undefined;
}

/** `campaign complete`: archive the campaign. */
export interface CompleteCampaignInput {
  /** Archive even with tasks in progress. */
  force?: boolean | undefined;
  /** Archive without an observation; the reason is recorded. */
  skipObserve?: string | undefined;
  /** Where the workspaces were created (default .ratchet/workspace). */
  workspaceDir?: string | undefined;
}
