/**
 * Protocol 0 as a pure function of (log, job, runner, active runners): the seed's order of steps,
 * deterministic, no I/O. The caller applies `staleLocks` (the CLI does it under the lock).
 */
import { PLACEHOLDER_TITLE } from './log.js';
import { lastEntryFor, listTasks, plannerOf, taskLockStaleness } from './ops.js';
import type { JobFile, LogFile, RoadmapItem } from './types.js';

export type TriageStep = 'stale-locks' | 'failed-task' | 'pending-blocker' | 'user-reply' | 'plan-alignment' | 'task-selection';

export type TriageDecision =
  | { kind: 'role'; role: 'Planner' | 'Runner'; step: TriageStep; objective: string; taskId?: string; clarificationId?: string; staleLocks: string[] }
  | { kind: 'exit'; code: 0 | 1 | 2; step: TriageStep; reason: string; staleLocks: string[] };

export interface TriageInput {
  log: LogFile;
  job: JobFile;
  runner: string;
  /** The other active runners (Other_Runner_List). The runner itself always counts as active. */
  active: readonly string[];
  /**
   * The caller locks the selected task for the runner in the same locked write (`jixo triage
   * --claim`, the outer loop's assignment), so the first ready task is this runner's. Without it the
   * answer is advice read before a separate `task lock`: idle runners are then spread over the ready
   * tasks by rank, so runners triaging at the same time are not all told the same task.
   */
  claiming?: boolean;
  /**
   * The time (ms) task leases are judged at: a leased lock is stale once its lease has passed,
   * whoever is active. Default `Date.now()`; the outer loop passes its clock.
   */
  now?: number;
}

export function triage(input: TriageInput): TriageDecision {
  const decision = decide(input);
  const nowMs = input.now ?? Date.now();
  // A job is not over while its Planner is still planning: the roadmap may be half written (a
  // Planner that commits task by task), and the round's last word is the Planner's.
  if (decision.kind === 'exit' && decision.code !== 2) {
    const live = plannerOf(input.log, nowMs);
    if (live !== undefined && live.runner !== input.runner) return { kind: 'exit', code: 2, step: decision.step, reason: `Runner ${live.runner} is planning until ${live.leaseUntil}: the job is not over before its round ends.`, staleLocks: decision.staleLocks };
  }
  if (decision.kind !== 'role' || decision.role !== 'Planner') return decision;
  // Two planners at once write conflicting plans, so one is elected and recorded in the log
  // (`planner`, with a lease): the first runner to reach a Planner step while nobody holds a live
  // round. The caller records it (`electPlanner`) in the same locked write. An election by a list
  // of runners was wrong whenever the list was: runners that had exited, or never started.
  const live = plannerOf(input.log, nowMs);
  if (live === undefined || live.runner === input.runner) return decision;
  // The others are not idled by the Planner round: a runner with executable work takes it (tasks
  // the Planner is asked about, blocked or failed, are not executable and never selected).
  const { pick } = selectTask(input, viewOf(input), live.runner);
  if (pick !== undefined) return { kind: 'role', role: 'Runner', step: 'task-selection', taskId: pick.id, objective: `Task ${pick.text}`, staleLocks: decision.staleLocks };
  return { kind: 'exit', code: 2, step: decision.step, reason: `Runner ${live.runner} is the one to plan (${decision.objective}) until ${live.leaseUntil}; nothing else to do.`, staleLocks: decision.staleLocks };
}

interface View {
  /** The tasks with stale locks already released (in memory). */
  tasks: RoadmapItem[];
  byId: Map<string, RoadmapItem>;
  staleLocks: string[];
}

/** Step 1, stale lock reconciliation, applied to a copy for the remaining steps. */
function viewOf({ log, runner, active, now }: TriageInput): View {
  const live = new Set([...active, runner]);
  const nowMs = now ?? Date.now();
  const tasks = listTasks(log).map((t) => ({ ...t }));
  const staleLocks: string[] = [];
  for (const t of tasks) {
    // The caller's own lock is never stale to itself: it is alive, asking.
    if (t.runner !== runner && taskLockStaleness(t, live, nowMs) !== undefined) {
      staleLocks.push(t.id);
      t.status = 'Pending';
      delete t.runner;
      delete t.leaseUntil;
    }
  }
  return { tasks, byId: new Map(tasks.map((t) => [t.id, t])), staleLocks };
}

/** Active runners (the caller included) holding no Locked task, sorted: the earliest started first. */
function idleRunners({ runner, active }: TriageInput, view: View): string[] {
  const busy = new Set(view.tasks.flatMap((t) => (t.status === 'Locked' && t.runner !== undefined ? [t.runner] : [])));
  return [...new Set([...active, runner])].filter((r) => r === runner || !busy.has(r)).sort();
}

/** A Pending task with a recorded blocker waits for a Planner; it is not executable. */
function blockerOf(log: LogFile, task: RoadmapItem): string | undefined {
  const last = lastEntryFor(log, task);
  return last?.result === 'Pending' ? last.blocker : undefined;
}

/**
 * Executable tasks (Pending, every dependency Completed, no blocker) in roadmap order, and the one
 * for this runner: the first when it claims, else the one at its rank among the idle runners (the
 * elected `planner` excluded), so concurrent runners are told distinct tasks. Undefined when its
 * rank is past the ready tasks: the earlier-ranked runners take them.
 */
function selectTask(input: TriageInput, view: View, planner?: string): { ready: RoadmapItem[]; pick: RoadmapItem | undefined } {
  const ready = view.tasks.filter((t) => t.status === 'Pending' && (t.dependsOn ?? []).every((d) => view.byId.get(d)?.status === 'Completed') && blockerOf(input.log, t) === undefined);
  if (input.claiming === true) return { ready, pick: ready[0] };
  const rank = idleRunners(input, view)
    .filter((r) => r !== planner)
    .indexOf(input.runner);
  return { ready, pick: ready[Math.max(0, rank)] };
}

function decide(input: TriageInput): TriageDecision {
  const { log, job, runner } = input;
  const view = viewOf(input);
  const { tasks, byId, staleLocks } = view;
  // A runner that already holds a Locked task (the outer loop assigned it, or it locked it earlier
  // in this lifecycle) continues that task: it may hold only one, and it is not idle.
  const mine = tasks.find((t) => t.status === 'Locked' && t.runner === runner);
  if (mine) return { kind: 'role', role: 'Runner', step: 'task-selection', taskId: mine.id, objective: `Task ${mine.text}`, staleLocks };
  // 2. Failed task triage.
  const failed = tasks.find((t) => t.status === 'Failed');
  if (failed) return { kind: 'role', role: 'Planner', step: 'failed-task', taskId: failed.id, objective: `Resolve failed task ${failed.text}: read its Work Log entries, then retry it (set it back to Pending), replace it, or cancel it.`, staleLocks };
  // 3. Pending tasks with a true blocker: a Pending Work Log entry that records a Blocker (a field
  // the runner sets on purpose, so wording in a summary never decides), or a dependency that can never complete.
  for (const t of tasks) {
    if (t.status !== 'Pending') continue;
    const blocker = blockerOf(log, t);
    if (blocker !== undefined) {
      return { kind: 'role', role: 'Planner', step: 'pending-blocker', taskId: t.id, objective: `Remove the blocker of task ${t.text} (${blocker}): change the plan or the job so it can go on, then clear it with \`ratchet jixo task unblock <log> ${t.id} --summary "<how it was resolved>"\`.`, staleLocks };
    }
    const dead = (t.dependsOn ?? []).filter((d) => {
      const dep = byId.get(d);
      return dep === undefined || dep.status === 'Cancelled';
    });
    if (dead.length > 0) return { kind: 'role', role: 'Planner', step: 'pending-blocker', taskId: t.id, objective: `Task ${t.text} depends on ${dead.join(', ')}, which will never complete: re-plan it.`, staleLocks };
  }
  // 4. User reply triage.
  const answered = job.clarifications.find((c) => c.answered);
  if (answered) return { kind: 'role', role: 'Planner', step: 'user-reply', clarificationId: answered.id, objective: `Process the answer to clarification ${answered.id}: update the roadmap, then remove the request from the job file.`, staleLocks };
  // 5. Plan and goal alignment: an empty or placeholder roadmap, or a placeholder title.
  const effective = tasks.filter((t) => t.status !== 'Cancelled');
  if (effective.length === 0) return { kind: 'role', role: 'Planner', step: 'plan-alignment', objective: 'Create the roadmap: break the job goal into small, ordered, independently executable tasks, and give the log a title.', staleLocks };
  if (log.frontMatter.title.trim() === '' || log.frontMatter.title === PLACEHOLDER_TITLE) {
    return { kind: 'role', role: 'Planner', step: 'plan-alignment', objective: 'Give the log a concise title derived from the job file, and check the roadmap still matches the goal.', staleLocks };
  }
  // 6. Task selection and completion.
  const { ready, pick } = selectTask(input, view);
  if (pick) return { kind: 'role', role: 'Runner', step: 'task-selection', taskId: pick.id, objective: `Task ${pick.text}`, staleLocks };
  if (ready.length > 0) return { kind: 'exit', code: 2, step: 'task-selection', reason: `No available tasks to execute: the ${ready.length} ready task(s) go to idle runners started earlier.`, staleLocks };
  if (tasks.some((t) => t.status === 'Locked')) return { kind: 'exit', code: 2, step: 'task-selection', reason: 'No available tasks to execute, other agents are active.', staleLocks };
  if (effective.every((t) => t.status === 'Completed')) return { kind: 'exit', code: 0, step: 'task-selection', reason: 'Job completed successfully.', staleLocks };
  const waiting = tasks.filter((t) => t.status === 'Pending').map((t) => t.id);
  return { kind: 'exit', code: 1, step: 'task-selection', reason: `Pending tasks ${waiting.join(', ')} wait on each other (a dependency cycle): nothing can run.`, staleLocks };
}

/**
 * What an agent may record as `jixo_tasks_exit`. Code 1 stops the whole job, so a runner stuck on
 * its own task must not reach for it (it pauses with a blocker instead, and a Planner re-plans): an
 * agent records it only as the elected Planner, or when Protocol 0 itself decides code 1 (a dead
 * end). Code 0 ends the job: only when Protocol 0 decides it (every effective task Completed and
 * nothing for a Planner left). Code 2 (standby) is always allowed. Returns why not, or undefined.
 * The user (not an agent) is not asked: the caller skips this.
 */
export function exitRefusal(input: TriageInput, code: 0 | 1 | 2): string | undefined {
  if (code === 2) return undefined;
  const d = triage(input);
  if (code === 0) {
    if (d.kind === 'exit' && d.code === 0) return undefined;
    const what = d.kind === 'role' ? `the ${d.role} of ${d.objective}` : `told to exit ${d.code} (${d.reason})`;
    return `exit code 0 ends the job, and Protocol 0 does not decide it: triage makes ${input.runner} ${what}.`;
  }
  const elected = plannerOf(input.log, input.now ?? Date.now())?.runner === input.runner;
  if (d.kind === 'role' && d.role === 'Planner' && elected) return undefined;
  if (d.kind === 'exit' && d.code === 1) return undefined;
  const what = d.kind === 'role' ? `${d.role === 'Planner' && !elected ? 'not the elected Planner (run ratchet jixo triage first)' : `the ${d.role} of ${d.objective}`}` : `told to exit ${d.code} (${d.reason})`;
  return `only the elected Planner (or the user) may record exit code 1, which stops the whole job; triage makes ${input.runner} ${what}. A runner that cannot go on pauses its task with --blocker instead.`;
}

/** `exitRefusal` for code 1 (kept for callers of 0.x). */
export function errorExitRefusal(input: TriageInput): string | undefined {
  return exitRefusal(input, 1);
}
