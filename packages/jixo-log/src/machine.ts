/**
 * The task state machine, enforced through @ratchet/fsm-core:
 * Pending->Locked->Completed|Failed, Locked->Pending (stale or paused), Failed->Pending|Cancelled,
 * Pending->Cancelled. Completed and Cancelled are final.
 */
import { compile, nextSymbols, normalize, transition, triggerBetween, type Machine } from '@ratchet/fsm-core';
import { IllegalTransitionError } from './errors.js';
import type { RoadmapItem, TaskStatus } from './types.js';

export const TASK_MACHINE_DEFINITION = {
  id: 'jixo-task',
  description: 'Status of one task in a JIXO roadmap.',
  states: ['Pending', 'Locked', 'Completed', 'Failed', 'Cancelled'],
  initial_state: 'Pending',
  final_states: ['Completed', 'Cancelled'],
  transitions: [
    { source: 'Pending', dest: 'Locked', trigger: 'lock' },
    { source: 'Pending', dest: 'Cancelled', trigger: 'cancel' },
    { source: 'Locked', dest: 'Completed', trigger: 'complete' },
    { source: 'Locked', dest: 'Failed', trigger: 'fail' },
    { source: 'Locked', dest: 'Pending', trigger: 'release' },
    { source: 'Failed', dest: 'Pending', trigger: 'retry' },
    { source: 'Failed', dest: 'Cancelled', trigger: 'cancel' },
  ],
} as const;

let cached: Machine | undefined;

/** The compiled task machine (compiled once; machines are frozen). */
export function taskMachine(): Machine {
  cached ??= compile(normalize(structuredClone(TASK_MACHINE_DEFINITION)));
  return cached;
}

/** The statuses a task may move to from `status`. */
export function legalMoves(status: TaskStatus): TaskStatus[] {
  const m = taskMachine();
  return nextSymbols(m, status).map((s) => transition(m, status, s) as TaskStatus);
}

/** Set `item.status` to `to`, or throw IllegalTransitionError. */
export function moveTask(item: RoadmapItem, to: TaskStatus): void {
  const from = item.status ?? 'Pending';
  if (triggerBetween(taskMachine(), from, to).length === 0) throw new IllegalTransitionError(item.id, from, to, legalMoves(from));
  item.status = to;
  item.checked = to === 'Completed';
  // From now on the file says the status itself (a Locked task cannot be told by its checkbox).
  delete item.statusInferred;
}
