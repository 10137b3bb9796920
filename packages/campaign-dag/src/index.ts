/**
 * @ratchet/campaign-dag: campaigns as dependency graphs (FTL's campaign.json, made safe for
 * parallel builders), and FTL's XML workspaces with lineage and sibling failures.
 *
 * This entry loads no zod (hand-written validators keep `ready --claim` fast) and loads
 * fast-xml-parser only when a workspace is parsed. The zod schemas are at `@ratchet/campaign-dag/schema`.
 */
export { CAMPAIGN_STATUSES, SLUG_PATTERN, TASK_STATUSES, TASK_TYPES, type Campaign, type CampaignPhase, type CampaignStatus, type PhaseEvent, type PhaseEventName, type CascadeState, type CascadeStatus, type Clock, type Idioms, type LostClaim, type Task, type TaskStatus, type TaskType, type UnreachableTask } from './types.js';
export { CampaignError, GRAPH_RULES, PlanError, type CampaignErrorCode, type PlanProblem, type PlanRule } from './errors.js';
export { MAX_SEQ, formatSeq, normalizeSeq } from './seq.js';
export { buildIndex, cascadeStatus, checkGraph, findCycles, propagateBlocks, readyTasks, releaseCascades, seqLookup, topoOrder, waves, type GraphIndex, type GraphProblem, type GraphTask, type SeqLookup, type TopoResult } from './graph.js';
export { criticalPath } from './critical-path.js';
export { checkPlan, type CheckPlanOptions, type CheckPlanResult, type Plan, type PlanTask } from './plan.js';
export { TASK_LIFECYCLE, canTransition, legalTargets, taskLifecycle } from './lifecycle.js';
export { CAMPAIGN_PHASES, CAMPAIGN_PHASE_MACHINE, MAX_PHASE_LOG, PHASE_EVENTS, firePhase, inferPhase, migratePhase, noteTaskWork, phaseMachine } from './phase.js';
export { addPlan, campaignId, checkHolder, checkRunner, claimNext, findTask, newCampaign, setTaskStatus, summarize, unmetDependencies, type CampaignSummary, type NewCampaignOptions, type UpdateOptions } from './campaign.js';
export { campaignValidator, graphIssues } from './validate.js';
export { resolveInside, unsafePathReason } from './paths.js';
export { SIMILARITY_THRESHOLD, cosine, jaccard, similarity, type SimilarityInput, type SimilarityScore } from './similar.js';
export { renderGraph, type GraphFormat } from './render.js';
export {
  ARCHIVE_SCHEMA_URL,
  ARCHIVE_VERSION,
  CAMPAIGN_MAX_BYTES,
  CAMPAIGN_SCHEMA_URL,
  CAMPAIGN_VERSION,
  DEFAULT_STATE_DIR,
  addTasks,
  advancePhase,
  campaignDocument,
  campaignPaths,
  claimTask,
  claimTaskLeased,
  completeCampaign,
  createCampaign,
  findSimilar,
  heartbeatClaims,
  listReady,
  propagate,
  readArchive,
  readCampaign,
  readCampaignWithClaims,
  readCascade,
  recordObservation,
  updateCampaign,
  updateTask,
  type ArchiveEntry,
  type CampaignOptions,
  type CampaignPaths,
  type CompleteResult,
  type CreateOptions,
  type SimilarCampaign,
} from './store.js';
export {
  ATTEMPT_FILE_PATTERN,
  LOST_FILE_PATTERN,
  MAX_ATTEMPT,
  WORKSPACE_FILE_PATTERN,
  WORKSPACE_SCHEMA_VERSION,
  WORKSPACE_STATUSES,
  attemptFileName,
  checkXmlText,
  escapeAttr,
  escapeText,
  lostFileName,
  parseWorkspace,
  serializeWorkspace,
  workspaceFileName,
  type CodeContext,
  type InjectedFailure,
  type InjectedPattern,
  type LineageEntry,
  type PriorFailure,
  type PriorKnowledge,
  type PriorPattern,
  type Utilized,
  type WorkspaceRecord,
  type WorkspaceStatus,
} from './workspace-format.js';
export {
  MAX_WORKSPACE_BYTES,
  SIBLING_FAILURE_COST,
  blockWorkspace,
  completeWorkspace,
  createWorkspace,
  heldByAnother,
  listWorkspaceFiles,
  priorAttempts,
  readCampaignWorkspaces,
  readWorkspace,
  showWorkspace,
  siblingFailures,
  type CampaignWorkspaces,
  type SkippedWorkspace,
  type CreateWorkspaceOptions,
  type FinishOptions,
  type WorkspaceFile,
} from './workspace.js';
export { applyClaim, claimItemId, claimQueueKey, judgeClaim, overlayClaims, parseClaimItemId, readyOffers, type ClaimVerdict, type LiveClaim } from './claims.js';
export { convertFtlCampaign, ftlArchiveEntry, readFtlCampaign, readFtlCampaignFile, importFtlCampaign, listFtlArchive, type FtlCampaignFile, type FtlConversion, type FtlFinished, type FtlImportResult } from './ftl-import.js';
