/**
 * The task lifecycle as an fsm-core machine: the only legal status changes. The symbols are the
 * target statuses, so "update-task 3 complete" is one `transition(machine, from, 'complete')`.
 *
 *   pending -> in_progress (claimed; its dependencies are complete)   pending -> blocked (cascade or refused)
 *   in_progress -> complete | blocked | pending (released)            blocked -> pending (retry)
 *   complete is final.
 */
import { loadDefinition, transition, type MapDefinitionDocument, type Machine } from '@ratchet/fsm-core';
import type { TaskStatus } from './types.js';

export const TASK_LIFECYCLE: MapDefinitionDocument = {
  id: 'campaign-task-lifecycle',
  description: 'Legal status changes of a campaign task (symbols are the target statuses).',
  states: ['pending', 'in_progress', 'complete', 'blocked'],
  alphabet: ['pending', 'in_progress', 'complete', 'blocked'],
  transitions: {
    pending: { in_progress: 'in_progress', blocked: 'blocked' },
    in_progress: { complete: 'complete', blocked: 'blocked', pending: 'pending' },
    blocked: { pending: 'pending' },
  },
  start_state: 'pending',
  accept_states: ['complete', 'blocked'],
};

let machine: Machine | undefined;

/** The compiled lifecycle machine (compiled once, on first use). */
export function taskLifecycle(): Machine {
  if (machine === undefined) {
    const { machine: m, diagnostics } = loadDefinition(TASK_LIFECYCLE);
    if (m === undefined) throw new Error(`the built-in task lifecycle is invalid: ${JSON.stringify(diagnostics)}`);
    machine = m;
  }
  return machine;
}

/** Whether a task may go from `from` to `to`. */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return transition(taskLifecycle(), from, to) !== undefined;
}

/** The statuses reachable in one step from `from`. */
export function legalTargets(from: TaskStatus): TaskStatus[] {
  return (['pending', 'in_progress', 'complete', 'blocked'] as const).filter((to) => canTransition(from, to));
}
