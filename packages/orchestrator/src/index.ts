/**
 * @ratchet/orchestrator: master control. The task lifecycle over the orchestrator FSM, plan-stack
 * execution (call_plan push/pop, run-time depth limit) and the persisted session document.
 * Pure functions over a plain-JSON `Session`; files only through @ratchet/store (session.ts).
 */
export type { Clock, HistoryEntry, PlanFrame, Session } from './types.js';
export { ORCHESTRATOR_DEFINITION } from './definition.js';
export { RecursionDepthError } from '@ratchet/fsm-core';
export { IllegalMoveError, createSession, fire, isFinished, legalTriggers, moveTo, orchestratorMachine, type LifecycleOptions } from './lifecycle.js';
export {
  AFTER_PLAN,
  DEFAULT_MAX_DEPTH,
  EXECUTING,
  FAILED,
  PlanStackError,
  advance,
  currentStep,
  expandSteps,
  startPlan,
  type CurrentStep,
  type PlanStackErrorCode,
  type PlanStackOptions,
  type StepResult,
} from './plan-stack.js';
export { HistoryEntrySchema, PlanFrameSchema, SESSION_SCHEMA_VERSION, SessionSchema, openSession, sessionDocument, type OpenSessionOptions, type SessionFile } from './session.js';
