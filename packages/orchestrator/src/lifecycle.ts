/**
 * The task lifecycle over the orchestrator FSM. Pure: each function returns a new session and
 * never mutates its argument. Trigger names come from the machine (`triggerBetween`), never from
 * this code, so `moveTo(session, 'EXECUTING')` keeps working if the protocol renames a trigger.
 */
import { compile, isAcceptState, nextSymbols, normalize, transition, triggerBetween, type Machine } from '@ratchet/fsm-core';
import { ORCHESTRATOR_DEFINITION } from './generated/definition.js';
import type { Clock, Session } from './types.js';

let cached: Machine | undefined;

/** The compiled orchestrator machine (compiled once, then shared: machines are frozen). */
export function orchestratorMachine(): Machine {
  cached ??= compile(normalize(structuredClone(ORCHESTRATOR_DEFINITION)));
  return cached;
}

export interface LifecycleOptions extends Clock {
  /** Another lifecycle machine (tests, custom protocols); default: the orchestrator FSM. */
  machine?: Machine;
  /** Recorded in the history entry. */
  message?: string;
}

/** A move the lifecycle does not allow from where the session stands. */
export class IllegalMoveError extends Error {
  readonly code = 'illegal-move' as const;
  /** The state the session is in. */
  readonly state: string;
  /** The trigger that was fired (fire) or undefined (moveTo). */
  readonly trigger: string | undefined;
  /** The requested destination (moveTo) or undefined (fire). */
  readonly dest: string | undefined;
  /** The triggers legal in `state`, in alphabet order. */
  readonly legal: readonly string[];
  constructor(details: { state: string; trigger?: string; dest?: string; legal: readonly string[]; reason?: string }) {
    const what = details.trigger !== undefined ? `trigger ${JSON.stringify(details.trigger)}` : `move to ${JSON.stringify(details.dest)}`;
    const legal = details.legal.length > 0 ? details.legal.join(', ') : '(none: final state)';
    super(`${what} is not allowed in state ${JSON.stringify(details.state)}${details.reason ? ` (${details.reason})` : ''}; legal triggers: ${legal}`);
    this.name = 'IllegalMoveError';
    this.state = details.state;
    this.trigger = details.trigger;
    this.dest = details.dest;
    this.legal = details.legal;
  }
}

/** A fresh session at the machine's start state. */
export function createSession(taskId: string, options: Clock & { machine?: Machine }): Session {
  const machine = options.machine ?? orchestratorMachine();
  const at = options.now().toISOString();
  return { taskId, state: machine.start, stack: [], history: [], createdAt: at, updatedAt: at };
}

/** The triggers legal in the session's state, in alphabet order. */
export function legalTriggers(session: Session, machine: Machine = orchestratorMachine()): string[] {
  return nextSymbols(machine, session.state);
}

/** True when the session is in an accept state (DONE). */
export function isFinished(session: Session, machine: Machine = orchestratorMachine()): boolean {
  return isAcceptState(machine, session.state);
}

/** Fire `trigger`; throws IllegalMoveError (naming the state and the legal triggers) when it has no transition. */
export function fire(session: Session, trigger: string, options: LifecycleOptions): Session {
  const machine = options.machine ?? orchestratorMachine();
  const to = transition(machine, session.state, trigger);
  if (to === undefined) throw new IllegalMoveError({ state: session.state, trigger, legal: nextSymbols(machine, session.state) });
  return record(session, trigger, to, options);
}

/** Move to `dest` by the one trigger that leads there; throws IllegalMoveError when none does (or several do). */
export function moveTo(session: Session, dest: string, options: LifecycleOptions): Session {
  const machine = options.machine ?? orchestratorMachine();
  if (!machine.stateIndex.has(dest)) {
    throw new IllegalMoveError({ state: session.state, dest, legal: nextSymbols(machine, session.state), reason: `no state ${JSON.stringify(dest)} in machine ${JSON.stringify(machine.id)}` });
  }
  const triggers = triggerBetween(machine, session.state, dest);
  if (triggers.length !== 1) {
    const reason = triggers.length === 0 ? undefined : `ambiguous: ${triggers.join(', ')} all lead there`;
    throw new IllegalMoveError({ state: session.state, dest, legal: nextSymbols(machine, session.state), ...(reason ? { reason } : {}) });
  }
  return record(session, triggers[0]!, dest, options);
}

function record(session: Session, trigger: string, to: string, options: LifecycleOptions): Session {
  const at = options.now().toISOString();
  const entry = { at, from: session.state, trigger, to, ...(options.message !== undefined ? { message: options.message } : {}) };
  return { ...session, state: to, history: [...session.history, entry], updatedAt: at };
}
