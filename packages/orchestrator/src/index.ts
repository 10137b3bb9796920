/**
 * @ratchet/orchestrator: master control. The task lifecycle over the orchestrator FSM, plan-stack
 * execution (call_plan push/pop, run-time depth limit) and the persisted session document.
 * Pure functions over a plain-JSON `Session`; files only through @ratchet/store (session.ts).
 */
export type { Clock, HistoryEntry, PlanFrame, PlanPins, PostMortemInfo, ResearchInfo, Session, StepBaseline } from './types.js';
export { pinPlans, pinsOf, planSha256 } from './pins.js';
export { ORCHESTRATOR_DEFINITION } from './generated/definition.js';
export { RecursionDepthError } from '@ratchet/fsm-core';
export { IllegalMoveError, createSession, fire, isFinished, legalTriggers, moveTo, orchestratorMachine, type LifecycleOptions } from './lifecycle.js';
export {
  AFTER_PLAN,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_STEPS,
  EXECUTING,
  FAILED,
  PlanChangedError,
  PlanStackError,
  advance,
  currentStep,
  expandSteps,
  reorient,
  startPlan,
  type CurrentStep,
  type PlanStackErrorCode,
  type PlanStackOptions,
  type StartPlanOptions,
  type StepResult,
} from './plan-stack.js';
export { SESSION_SCHEMA_VERSION, openSession, sessionDocument, type OpenSessionOptions, type SessionFile } from './session.js';
export { ACTIVITY_LOG_SCHEMA_URL, AGENT_META_SCHEMA_URL, ORIENTATION_REPORT_SCHEMA_URL, SESSION_SCHEMA_URL } from './urls.js';
export { ACTIVITY_LOG_PATH, activityEntry, openActivityLog, openActivityLogStore, scanActivityLog, type ActivityActor, type ActivityEntry, type ActivityInput, type ActivityLogStore, type ActivityLogStoreOptions, type ActivityStatus } from './activity-log.js';
export { activityEntryValidator, sessionValidator } from './validate.js';
export {
  AGENT_META_PATH,
  DEFAULT_NETWORK_TARGET,
  DEFAULT_NETWORK_TIMEOUT_MS,
  KNOWLEDGE_CORE,
  ORIENTATION_REPORT_VERSION,
  OrientationError,
  PROBED_ENV,
  agentMetaProblem,
  orient,
  orientationReportFile,
  probeNetwork,
  readAgentMeta,
  type AgentMeta,
  type ArtifactSummary,
  type NetworkProbe,
  type ProbeNetworkDependencies,
  type OrientationErrorCode,
  type OrientationOptions,
  type OrientationReport,
  type OrientationReportFile,
} from './orientation.js';
export { PLAN_FILE, REPORT_FILE, RESEARCH_DIR, normaliseTopic, researchPlan, researchReportPath, researchReportProblem, researchSlug, type ResearchPlan, type ResearchReportProblem } from './research.js';
export {
  AWAITING_RESULT,
  RESEARCHING,
  advanceResearch,
  enterResearch,
  leaveResearch,
  returnState,
  stepTriggers,
  type ResearchCycleOptions,
  type ResearchStart,
} from './research-cycle.js';
export { nextDirective, resetCommand, type Directive } from './directive.js';
export { POST_MORTEM_GAPS, selfCorrectionCommands, selfCorrectionGaps, type SelfCorrectionEvidence, type SelfCorrectionGap } from './self-correction-gate.js';
