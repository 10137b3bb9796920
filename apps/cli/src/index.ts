/**
 * @ratchet/cli as a library: run the `ratchet` command in-process (for harnesses and tests) and
 * read its command tree (protocol docs embed each command's usage from here, so they cannot drift).
 *
 * The published types are this module's closure only (scripts/emit-types.mjs fails the build when
 * it reaches a bare import): commander and the @ratchet/* packages are bundled, not dependencies,
 * so a declaration that named them would not resolve for users (TS2307).
 */
import type { Io } from './context.js';
import { buildProgram as buildCommandTree } from './program.js';
import { keepStorageOpen as keepOpen } from './storage.js';

export { run } from './main.js';
export type { CommandAction, Context, Io, GlobalOptions } from './context.js';
export { CliError } from './errors.js';
export { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './exit-codes.js';
// The typed application layer the MCP server calls (no argv, no printed output): src/operations/.
export { invokeOperation, type OperationOutcome, type OperationResult } from './operations/invoke.js';
export {
  JIXO_OUTCOMES,
  JIXO_PLAN_ACTIONS,
  JIXO_RESULTS,
  type JixoCheckInput,
  type JixoClarifyInput,
  type JixoDecideInput,
  type JixoLockInput,
  type JixoLogChangeInput,
  type JixoLogInput,
  type JixoOutcome,
  type JixoPlanAction,
  type JixoResult,
  type JixoTaskMoveInput,
  type JixoTaskVerb,
  type JixoTriageInput,
  type JixoUnlockInput,
} from './operations/jixo-input.js';
export { jixoOperations } from './operations/jixo-api.js';
export { LESSONS_FILE, LESSON_STATUSES, type ApplyLessonsInput, type ExtractLessonsInput, type LessonStatusName, type ListLessonsInput } from './operations/lessons-input.js';
export { lessonsOperations } from './operations/lessons-api.js';
export type { EndSpanInput, EndTurnInput, EventKindName, StartSpanInput, StartTurnInput, TraceBudgetsInput, TraceEventInput, AddActionInput, AddGoalInput, AssessTurnInput, ChangeActionInput, CommitTurnInput, PlanStepEvent, PlanStepInput, StartPlanInput, TraceLocation, GoalProgressInput, GoalStatusName, GoalsLocation, ListGoalsInput, ListActionsInput, OwnerName, UpdateActionInput, Versioned } from './operations/goals-input.js';
export { goalsOperations } from './operations/goals-api.js';
export type { ResearchPlanInput, RunPlanInput, StepResultInput, TaskCloseInput, TaskSessionInput, TaskStartInput, TaskSubmitInput } from './operations/orchestrator-input.js';
export { orchestratorOperations } from './operations/orchestrator-api.js';
export type { DeregisterPlanInput, PlanCheckInput, RegisterPlanInput } from './operations/plan-input.js';
export { planOperations } from './operations/plan-api.js';
export type { FlowAdvanceInput, FlowBranchInput, FlowHaltInput, FlowStartInput, FlowStatusInput } from './operations/flows-input.js';
export { flowsOperations } from './operations/flows-api.js';
export type { BlockWorkspaceInput, CompleteWorkspaceInput, CreateWorkspaceInput, FinishWorkspaceInput, ShowWorkspaceInput, WorkspacesInput } from './operations/workspace-input.js';
export { workspaceOperations } from './operations/workspace-api.js';
export { TASK_STATUS_NAMES, planSource as campaignPlanSource, type AddTasksInput, type CampaignInput, type CampaignPhaseInput, type CampaignReadyInput, type CompleteCampaignInput, type CreateCampaignInput, type HeartbeatInput, type TaskStatusName, type UpdateTaskInput } from './operations/campaign-input.js';
export { campaignOperations } from './operations/campaign-api.js';
export type {
  MemoryAddFailureInput,
  MemoryAddPatternInput,
  MemoryEdgeType,
  MemoryFeedbackInput,
  MemoryLinkInput,
  MemoryObserveInput,
  MemoryPruneInput,
  MemoryQueryInput,
  MemoryStatsInput,
} from './operations/memory-input.js';
export { memoryOperations } from './operations/memory-api.js';
export type { CompileProtocolsInput, ProtocolDetail, ProtocolEditInput, UpdateProtocolInput } from './operations/protocol-input.js';
export { protocolOperations } from './operations/protocol-api.js';
export type {
  GoalsWriteInput,
  ProposalAmendInput,
  ProposalSource,
  ProposalSubmitInput,
  QuestionAddInput,
  ScratchAddInput,
  ScratchArchiveInput,
  ScratchExpireInput,
  ScratchPromoteInput,
  ScratchReviewInput,
  StoryUpdateInput,
} from './operations/notes-input.js';
export { notesOperations } from './operations/notes-api.js';
// What each command does to Ratchet's state and which MCP tool does it for the agent (the MCP server's
// tool annotations and its coverage test read it).
export { COMMAND_EFFECTS, effectOf, type CommandEffect, type Effect } from './command-effects.js';

/**
 * A command of the tree `buildProgram` returns: what library users may rely on of commander's
 * `Command`, described here so the types do not name commander.
 */
export interface CommandTree {
  name(): string;
  description(): string;
  summary(): string;
  usage(): string;
  aliases(): string[];
  /** The full `--help` text of this command. */
  helpInformation(): string;
  readonly commands: readonly CommandTree[];
}

/**
 * The command tree, for reading names, usage and help: every command, or with `argv` only the area
 * that call needs. `state` receives the exit code of a command run through it.
 */
export const buildProgram: (io: Io, state: { exitCode: number }, argv?: readonly string[]) => Promise<CommandTree> = buildCommandTree;

/**
 * For long-lived hosts that run many commands in process (the MCP server): keep each project's
 * storage backend, with its connection pool, open across commands. Returns the function that
 * closes them all (call it on shutdown). Typed here so the public types do not name @ratchet/store.
 */
export const keepStorageOpen: () => () => Promise<void> = keepOpen;
