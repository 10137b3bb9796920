/**
 * @ratchet/jixo-log: JIXO job and log Markdown files with lossless round trips, a real inter-process
 * log lock, the task state machine, Protocol 0 triage, atomic commits and the outer-loop runner.
 * This entry loads no zod; the schemas are at `@ratchet/jixo-log/schema`.
 */
export * from './types.js';
export { JixoError, JixoParseError, IllegalTransitionError, type JixoErrorCode } from './errors.js';
export { parseLog, parseLogStrict, serializeLog, parseProgress, formatProgress, itemId, ROADMAP, WORK_LOG, ROADMAP_TITLES, WORK_LOG_TITLES, PLACEHOLDER_TITLE, type ParseResult } from './log.js';
export { jixoFileKind, type JixoFileKind } from './file-kind.js';
export { parseJob, parseJobStrict, serializeJob, renderClarification, CLARIFICATION_HEADING, RESPONSE_PLACEHOLDER } from './job.js';
export { TASK_MACHINE_DEFINITION, taskMachine, legalMoves, moveTask } from './machine.js';
export {
  listTasks,
  findTask,
  computeProgress,
  addEntry,
  lockTask,
  finishTask,
  releaseStaleLocks,
  releaseRunnerTasks,
  renewTaskLeases,
  taskLockStaleness,
  DEFAULT_TASK_LEASE_MS,
  addTask,
  setTaskStatus,
  plannerOf,
  electPlanner,
  endPlannerRound,
  renewPlannerLease,
  unblockTask,
  renameItem,
  setDependsOn,
  removeItem,
  entryConcerns,
  lastEntryFor,
  setTitle,
  recordExit,
  clearExit,
  addClarification,
  jobLanguage,
  CLARIFICATION_INTRO,
  removeClarification,
  type CommitContext,
  type EntryInput,
  type FinishInput,
  type AddTaskInput,
} from './ops.js';
export { triage, errorExitRefusal, exitRefusal, type TriageDecision, type TriageInput, type TriageStep } from './triage.js';
export {
  readLogFile,
  readJobFile,
  auditLogFile,
  inspectLogFile,
  logLockHolder,
  acceptLogFile,
  restoreLogFile,
  RejectedEditError,
  updateLogFile,
  updateJobFile,
  lockLog,
  unlockLog,
  releaseRunnerLock,
  renewRunnerLock,
  detachedStaleness,
  DEFAULT_LEASE_MS,
  type LockSettings,
  type UpdateOptions,
  type LogLockOptions,
  type LogLockResult,
  type LogAudit,
  type EditContext,
  type SettledEdit,
} from './files.js';
export { runnerId, uuidv7, jobName, logPathFor, initialLog, ensureLog, shellSpawner, type RunOptions, type RunResult, type RunEvent, type SpawnAgent, type AgentRequest, type AgentOutcome, type Assignment } from './runner.js';
export { runJob } from './pool.js';
export { fileLog, storedLog, STORED_LOG_FORMAT, type LogHandle, type LogLockInfo, type LogUpdate } from './log-handle.js';
export { activeRunnersPath, publishActiveRunners, readActiveRunners, type ActiveRunnersFile } from './active-runners.js';
export { auditLog, type AuditOptions } from './audit.js';
export { SYSTEM_PROMPT } from './system-prompt.js';
