/**
 * The session lifecycle as an @ratchet/fsm-core machine (the seed's skill FSM, reduced to what a
 * session can be in): every status change goes through `transition`, so an event the lifecycle does
 * not allow (advancing a halted session, resuming a running one) is refused by one table.
 */
import { compile, nextSymbols, normalize, transition, type Machine, type MapDefinitionDocument } from '@ratchet/fsm-core';
import { FlowError } from './errors.js';
import type { SessionState, SessionStatus } from './types.js';

export type SessionEvent = 'advance' | 'loop' | 'remediate' | 'branch' | 'halt' | 'resume' | 'complete' | 'phases-done' | 'learnings';

export const SESSION_FSM: MapDefinitionDocument = {
  id: 'flow-session',
  states: ['EXECUTING', 'HALTED', 'COMPLETED', 'LEARNINGS_PENDING', 'FULLY_COMPLETE'],
  alphabet: ['advance', 'loop', 'remediate', 'branch', 'halt', 'resume', 'complete', 'phases-done', 'learnings'],
  transitions: {
    EXECUTING: { advance: 'EXECUTING', loop: 'EXECUTING', remediate: 'EXECUTING', branch: 'EXECUTING', halt: 'HALTED', complete: 'COMPLETED', 'phases-done': 'LEARNINGS_PENDING' },
    HALTED: { resume: 'EXECUTING' },
    // A skill's phases are done; only its learnings lead on (no halt: there is no step to resume at).
    LEARNINGS_PENDING: { learnings: 'FULLY_COMPLETE' },
  },
  start_state: 'EXECUTING',
  accept_states: ['COMPLETED', 'FULLY_COMPLETE'],
};

const FINISHED: ReadonlySet<string> = new Set(SESSION_FSM.accept_states);

/** Whether a session is finished (an accept state of the session machine): nothing more is owed. */
export function isFinished(status: SessionStatus): boolean {
  return FINISHED.has(status);
}

let compiled: Machine | undefined;

/**
 * The session machine, compiled without fsm-core's semantic checks (reachability, dead states and
 * their sorted diagnostics: a few ms of every `flow` call). SESSION_FSM is a constant, and
 * test/status.test.ts holds it to loadDefinition with no diagnostics at all.
 */
export function sessionMachine(): Machine {
  compiled ??= compile(normalize(structuredClone(SESSION_FSM)));
  return compiled;
}

/** The status after `event`, or a `session-not-active` error naming what the session can do instead. */
export function nextStatus(state: SessionState, event: SessionEvent): SessionStatus {
  const machine = sessionMachine();
  const to = transition(machine, state.status, event);
  if (to === undefined) {
    const allowed = nextSymbols(machine, state.status);
    const hint = state.status === 'HALTED' ? ` (${state.haltReason ?? 'halted'}): resume it first` : isFinished(state.status) ? ': the flow is finished' : state.status === 'LEARNINGS_PENDING' ? ': its phases are done; write its learnings, then advance' : '';
    throw new FlowError('session-not-active', `session ${state.sessionId} is ${state.status}${hint}; cannot ${event} (allowed: ${allowed.length > 0 ? allowed.join(', ') : 'nothing'})`);
  }
  return to as SessionStatus;
}
