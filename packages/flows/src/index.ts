/**
 * @ratchet/flows: step and phase workflows with artifact gates and mandatory next-command
 * directives (the seed's reasoning protocol and composite skills). The main entry loads no zod:
 * flows and sessions are checked by hand-written validators; the zod mirror is `@ratchet/flows/schema`.
 */
export { FlowError, type FlowErrorCode, type FlowProblem } from './errors.js';
export {
  FINISHED_STATUSES,
  FLOW_KINDS,
  SESSION_MODES,
  SESSION_STATUSES,
  STEP_TYPES,
  VERDICTS,
  type Branch,
  type DirectiveText,
  type Flow,
  type FlowKind,
  type Gate,
  type Handoff,
  type HistoryEntry,
  type HistoryEvent,
  type InputDeclaration,
  type OutputGate,
  type SessionMode,
  type SessionState,
  type SessionStatus,
  type SkipCondition,
  type Step,
  type StepOutput,
  type StepType,
  type Verdict,
  type VerdictRecord,
} from './types.js';
export { BASE_VARS, DEFAULT_LOOP_LIMIT, FLOW_ID, FLOW_SCHEMA_URL, MAX_LOOP_LIMIT, STEP_ID, checkFlow, type FlowCheck } from './validate-flow.js';
export { FLOW_MAX_BYTES, formatOf, loadFlowFile, parseFlow, type FlowFormat, type LoadedFlow, type ParseFlowOptions } from './parse.js';
export { placeholders, renderTemplate, resolveInside, staticPathProblem } from './template.js';
export {
  MAX_QUESTIONS,
  SESSION_ID,
  applyAdvance,
  branchGates,
  checkSessionId,
  createSession,
  entryArtifacts,
  openQuestions,
  learningsGates,
  planAdvance,
  verdictGate,
  stepGates,
  transitionGate,
  type AdvanceKind,
  type AdvancePlan,
  type NewSession,
  type ResolvedGate,
} from './engine.js';
export { ARTIFACT_MAX_BYTES, evaluateGate, evaluateGates, shapeProblems, type GateResult } from './gates.js';
export { contentDigest, snapshot, type Baseline } from './fresh.js';
export { LEDGER_FILE, LEDGER_SCHEMA_URL, LEDGER_VERSION, claimArtifacts, ledgerDocument, ledgerSchema, openLedger, type Ledger, type LedgerEntry } from './ledger.js';
export { linesOutsideFences } from './markdown.js';
export { findVerdict } from './verdict.js';
export { handoffOf, nextCommand, prerequisites, shellQuote } from './directive.js';
export { DEFAULT_DIRECTIVE, directiveText, renderDirective, type GateLine } from './render.js';
export { SESSIONS_DIR, SESSION_SCHEMA_URL, SESSION_VERSION, openSession, sessionDocument, sessionPath, sessionSchema } from './session-file.js';
export {
  MAX_OUTPUT_CHARS,
  advanceFlow,
  completeBranch,
  declineFlow,
  flowStatus,
  haltFlow,
  listSessions,
  resumeFlow,
  surveySessions,
  startFlow,
  type AdvanceInput,
  type DeclineInput,
  type FlowView,
  type Outcome,
  type ResumeInput,
  type RunnerOptions,
  type SessionSummary,
  type UnreadableSession,
  type StartInput,
  type StepView,
} from './runner.js';
export { SESSION_FSM, isFinished, nextStatus, sessionMachine, type SessionEvent } from './status.js';
export { FLOW_EXTENSIONS, findFlowFile, listFlowFiles, type FlowFile } from './catalog.js';
export { checkFlowNames, checkValues, needsCatalogue } from './values.js';
export {
  FLOW_SETTINGS_MAX_BYTES,
  FLOW_SETTINGS_SCHEMA_URL,
  MAX_DIRECTIVE_LINE,
  MAX_DIRECTIVE_WARNINGS,
  MEMORY_FILE_VARS,
  checkFlowSettings,
  loadFlowSettings,
  withMemoryFiles,
  type FlowSettings,
  type MemoryFileNames,
} from './settings.js';
