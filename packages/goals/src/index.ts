/**
 * @ratchet/goals: Frontal Cortex. Long-horizon goals, pending actions with owner semantics, an
 * action-type registry (statuses and transitions enforced through fsm-core) with proposals, and
 * versioned persistence with an audit trail, revert and optimistic locking.
 *
 * This entry loads no zod and compiles no schema (validators are precompiled in src/generated/);
 * the zod schemas, the one source of truth for the formats, are at `@ratchet/goals/schema`.
 */
export type {
  AclEntry,
  ActionCounts,
  ArchivedItem,
  AuditSummary,
  GoalMilestone,
  ActionType,
  ActionTypeRegistryDocument,
  Actor,
  AuditEntry,
  Change,
  DefaultPolicies,
  EntityKind,
  EscalationPolicy,
  Goal,
  GoalsState,
  Observation,
  ObservationStatus,
  Owner,
  PendingAction,
  PlanRun,
  PlanRunStep,
  ProposalReview,
  Question,
  RegistryProposal,
  RegistryTrust,
  Scoped,
  StepStatus,
  Story,
  TurnRecord,
} from './types.js';
export {
  ConfirmationRequiredError,
  ConflictError,
  GoalsError,
  InputError,
  OwnerError,
  RegistryError,
  TransitionError,
  ScopeError,
  UntrustedRegistryError,
  type GoalsErrorCode,
  type RegistryIssue,
} from './errors.js';
export { ACTION_STATS_SCHEMA_URL, ACTION_TYPES_SCHEMA_URL, GOALS_STATE_SCHEMA_URL, PLAN_CONTEXT_SCHEMA_URL, PLAN_SCHEMA_URL, PROPOSAL_AMENDMENT_SCHEMA_URL, PROPOSAL_SCHEMA_URL, TURN_COMMIT_SCHEMA_URL } from './urls.js';
export { DEFAULT_ACTION_TYPES, defaultRegistryDocument } from './default-registry.js';
export {
  REGISTRY_MAX_BYTES,
  canTransition,
  checkRegistry,
  defaultRegistry,
  deprecateActionType,
  listActionTypes,
  loadRegistry,
  nextStatuses,
  parseRegistryText,
  readRegistryFile,
  unwrapRegistryEnvelope,
  registerActionType,
  registryFormat,
  type CompiledActionType,
  type Registry,
  type RegistryFormat,
} from './registry.js';
export { Tx, emptyState } from './tx.js';
export {
  BUILTIN_POLICY_HANDLERS,
  CANCEL_STATUSES,
  GOAL_STATUSES,
  SAFE_DEFAULT_TYPE,
  amendProposal,
  checkAmendment,
  checkProposal,
  completeAction,
  completionStatus,
  confirmAction,
  createAction,
  escalateDue,
  escalationTime,
  moveAction,
  retypeAction,
  reviewProposal,
  submitProposal,
  updateAction,
  updateProgress,
  upsertGoal,
  upsertQuestion,
  upsertStory,
  type ActionInput,
  type ActionPatch,
  type CreatedAction,
  type GoalInput,
  type MoveOptions,
  type PolicyHandlers,
  type ProgressDelta,
  type ProposalAmendment,
  type ProposedTypeFields,
  type ProposalInput,
  type QuestionInput,
  type StoryUpdate,
} from './ops.js';
export { assess, compareKeys, isPending, type AssessOptions, type AssessedAction, type Assessment } from './assess.js';
export {
  CUT_ORDER,
  jsonSize,
  planContext,
  renderPlanContext,
  type ContextAction,
  type ContextActionType,
  type ContextGoal,
  type ContextMemory,
  type ContextQuestion,
  type ContextSection,
  type CutItem,
  type PlanContext,
  type PlanContextOptions,
} from './plan-context.js';
export { MAX_PLAN_STEPS, parsePlan, type ParsedPlan, type PlanIssue, type PlanRule, type PlanStep } from './plan-format.js';
export { failStep, planDigest, readySteps, startPlan, startStep, succeedStep, type StartPlanInput } from './plan-run.js';
export {
  SCRATCH_TTL_MS,
  addObservation,
  archiveObservation,
  expireObservations,
  isExpired,
  promoteObservation,
  reviewObservation,
  scratchView,
  type ObservationInput,
  type Promotion,
  type ScratchView,
} from './scratch.js';
export { applyCommit, checkCommit, commitDigest, type CommitResult, type CompletedAction, type TurnCommit } from './turn.js';
export { applyProposal, checkMergedGuard, proposedType, proposedTypeIssues, serializeRegistry } from './proposals.js';
export { parseDuration } from './duration.js';
export { backoffDelay, withRetry, type RetryOptions } from './retry.js';
export {
  AUTO_COMPACT_AT,
  DEFAULT_GOALS_FILE,
  GOALS_STATE_VERSION,
  goalsDocument,
  openGoals,
  registryDigest,
  registryTrustProblem,
  type GoalsStore,
  type GoalsStoreOptions,
  type MutationMeta,
  type MutationResult,
  type RegistryFile,
} from './goals-file.js';
export * from './trace/index.js';
export { REGISTRY_PINS_DIR, pinDigest, pinRegistry, readPinnedRegistry, registryPinPath } from './registry-pins.js';
export {
  SCOPED_KINDS,
  applyShare,
  canAccess,
  checkAccess,
  describeScope,
  isUnrestricted,
  ownsScope,
  scopedView,
  shareItem,
  type Access,
  type ScopedKind,
  type ShareInput,
} from './scope.js';
export { FAILURE_STATUSES, actionStats, type ActionStats, type ActionStatsOptions, type ActionTypeCounts, type ActionTypeStats } from './stats.js';
export {
  COMPACT_KEEP_DEFAULT,
  REVERT_POINTS_DEFAULT,
  SUMMARY_EVIDENCE_MAX,
  SUMMARY_MILESTONES_MAX,
  auditBase,
  compactAudit,
  compactHistory,
  revertPoints,
  summarize,
  type CompactOptions,
  type CompactResult,
} from './compact.js';
