/**
 * Commits as pure functions over a LogFile / JobFile: each returns a new value and never mutates
 * its argument. The I/O layer (files.ts) runs them under the log lock, so a task's status change and
 * its Work Log entry land in one write (the seed's rule 1.3).
 */
import { IllegalTransitionError, JixoError } from './errors.js';
import { itemId } from './log.js';
import { legalMoves, moveTask } from './machine.js';
import type { Clarification, JobFile, LogFile, PlannerRound, RoadmapItem, TaskStatus, TasksExit, WorkLogEntry } from './types.js';

/** Every task (item with a status) in roadmap order, depth first. */
export function listTasks(log: LogFile): RoadmapItem[] {
  const out: RoadmapItem[] = [];
  const visit = (items: RoadmapItem[]): void => {
    for (const item of items) {
      if (item.status !== undefined) out.push(item);
      visit(item.children);
    }
  };
  visit(log.roadmap);
  return out;
}

export function findTask(log: LogFile, id: string): RoadmapItem {
  const task = listTasks(log).find((t) => t.id === id);
  if (!task) throw new JixoError('unknown-task', `no task "${id}" in the roadmap`);
  return task;
}

/** Completed / effective (non-Cancelled) tasks; 0 with no effective task. */
export function computeProgress(log: LogFile): number {
  const effective = listTasks(log).filter((t) => t.status !== 'Cancelled');
  if (effective.length === 0) return 0;
  return effective.filter((t) => t.status === 'Completed').length / effective.length;
}

function singleLine(what: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new JixoError('bad-argument', `${what} must be one line`);
  return value.trim();
}

/** Phases are checked when all their effective tasks are Completed; progress follows the tasks. */
function settle(log: LogFile, now: string): LogFile {
  const visit = (items: RoadmapItem[]): void => {
    for (const item of items) {
      visit(item.children);
      if (item.status === undefined && item.children.length > 0) {
        const inner: RoadmapItem[] = [];
        const collect = (xs: RoadmapItem[]): void => xs.forEach((x) => (x.status !== undefined && inner.push(x), collect(x.children)));
        collect(item.children);
        const effective = inner.filter((t) => t.status !== 'Cancelled');
        item.checked = effective.length > 0 && effective.every((t) => t.status === 'Completed');
      }
    }
  };
  visit(log.roadmap);
  log.frontMatter.progress = computeProgress(log);
  log.frontMatter.updateTime = now;
  return log;
}

export interface CommitContext {
  /** ISO time recorded in the Work Log and `updateTime`. */
  now: string;
  /** The job named in entries the log writes itself (a lost attempt); default the newest entry's job, else `jixo`. */
  job?: string;
}

export interface EntryInput {
  job: string;
  role: string;
  objective: string;
  result: string;
  summary: string;
  /** The committing runner, recorded so `auditLog` can tie a status change to its author. */
  runner?: string;
  /** Only on a Pending result: what the runner needs from a Planner. */
  blocker?: string;
}

/** True when a Work Log objective is about `task` ("Task 1.2. Title", "Task 1.2 ...", "Task 1.2"). */
export function entryConcerns(objective: string, task: RoadmapItem): boolean {
  return objective === `Task ${task.text}` || objective.startsWith(`Task ${task.id}.`) || objective.startsWith(`Task ${task.id} `) || objective === `Task ${task.id}`;
}

/** The newest Work Log entry about `task`, if any (the Work Log is newest first). */
export function lastEntryFor(log: LogFile, task: RoadmapItem): WorkLogEntry | undefined {
  return log.workLog.find((e) => entryConcerns(e.objective, task));
}

/** A new Work Log entry on top (newest first), numbered after the highest so far. */
export function addEntry(log: LogFile, input: EntryInput, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  pushEntry(next, input, ctx);
  return settle(next, ctx.now);
}

function pushEntry(log: LogFile, input: EntryInput, ctx: CommitContext): WorkLogEntry {
  const number = log.workLog.reduce((max, e) => Math.max(max, e.number), 0) + 1;
  if (!/^\S+$/.test(input.job)) throw new JixoError('bad-argument', 'job name must not be empty or contain spaces');
  const entry: WorkLogEntry = {
    number,
    job: input.job,
    time: ctx.now,
    role: singleLine('role', input.role),
    objective: singleLine('objective', input.objective),
    result: singleLine('result', input.result),
    summary: input.summary.replace(/\r\n?/g, '\n').trim(),
    extra: '',
  };
  if (input.runner !== undefined) entry.runner = singleLine('runner', input.runner);
  if (input.blocker !== undefined) {
    if (input.result !== 'Pending') throw new JixoError('bad-argument', 'a blocker is recorded only on a Pending result (pause the task)');
    const blocker = singleLine('blocker', input.blocker);
    if (blocker === '') throw new JixoError('bad-argument', 'the blocker must say what is missing');
    entry.blocker = blocker;
  }
  log.workLog.unshift(entry);
  return entry;
}

/** Protocol 1: lock exactly one Pending task (whose dependencies are Completed) for `runner`. */
export function lockTask(log: LogFile, id: string, runner: string, ctx: CommitContext & { leaseMs?: number }): LogFile {
  const next = structuredClone(log);
  checkRunner(runner);
  const tasks = listTasks(next);
  const mine = tasks.find((t) => t.status === 'Locked' && t.runner === runner);
  if (mine && mine.id !== id) throw new JixoError('already-locked', `runner ${runner} already holds task ${mine.id}: a runner locks one task at a time`);
  // Already this runner's (the outer loop assigned it before starting the agent, and renews its lease): nothing to do.
  if (mine) return log;
  const until = leaseEnd(ctx, ctx.leaseMs ?? DEFAULT_TASK_LEASE_MS);
  const task = findTask(next, id);
  if (task.status === 'Locked') {
    // Held by another runner: taken over only once its lease has expired (the lost attempt is logged).
    if (task.leaseUntil === undefined || Date.parse(task.leaseUntil) > Date.parse(ctx.now)) {
      throw new JixoError('already-locked', `task ${id} is locked by ${task.runner ?? '(nobody)'}${task.leaseUntil !== undefined ? ` until ${task.leaseUntil}` : ''}`);
    }
    releaseTask(next, task, ctx);
  }
  const waiting = (task.dependsOn ?? []).filter((d) => tasks.find((t) => t.id === d)?.status !== 'Completed');
  if (waiting.length > 0 && task.status === 'Pending') throw new JixoError('bad-argument', `task ${id} depends on ${waiting.join(', ')}, not Completed yet`);
  moveTask(task, 'Locked');
  task.runner = runner;
  task.leaseUntil = until;
  return settle(next, ctx.now);
}

export interface FinishInput {
  id: string;
  runner: string;
  job: string;
  /** Completed or Failed moves the task; Pending hands it back (quota, blocker) with a Pending entry. */
  outcome: 'Completed' | 'Failed' | 'Pending';
  summary: string;
  objective?: string;
  /** Only with outcome Pending: the task cannot go on without a Planner, and this says what is missing. */
  blocker?: string;
}

const RESULT_OF = { Completed: 'Succeeded', Failed: 'Failed', Pending: 'Pending' } as const;

/** Protocol 3: the task's new status and its Work Log entry, together. */
export function finishTask(log: LogFile, input: FinishInput, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  checkRunner(input.runner);
  const task = findTask(next, input.id);
  if (task.status === 'Locked' && task.runner !== input.runner) {
    throw new JixoError('wrong-runner', `task ${input.id} is locked by ${task.runner ?? '(nobody)'}, not ${input.runner}`);
  }
  // Only a Locked task is finished (Failed -> Pending is a Planner's retry, not a runner's result).
  if (task.status !== 'Locked') throw new IllegalTransitionError(task.id, task.status ?? 'Pending', input.outcome, legalMoves(task.status ?? 'Pending'));
  moveTask(task, input.outcome);
  // The lease ends with the lock; the runner stays on a Completed/Failed task as its author.
  delete task.leaseUntil;
  if (input.outcome === 'Pending') delete task.runner;
  pushEntry(next, { job: input.job, role: 'Runner', objective: input.objective ?? `Task ${task.text}`, result: RESULT_OF[input.outcome], summary: input.summary, runner: input.runner, ...(input.blocker !== undefined ? { blocker: input.blocker } : {}) }, ctx);
  return settle(next, ctx.now);
}

/** The lease a task lock gets when the caller names none: as long as the log lock's (10 minutes). */
export const DEFAULT_TASK_LEASE_MS = 10 * 60_000;

/**
 * Why a Locked task's lock is stale at `nowMs`, or undefined when it is live. A task with a lease is
 * decided by the lease alone: its runner may work on another host, which no local active-runner
 * list knows. A task without one (older logs, hand edits) keeps the seed's rule: stale when its
 * runner is not active.
 */
export function taskLockStaleness(task: RoadmapItem, live: ReadonlySet<string>, nowMs: number): string | undefined {
  if (task.status !== 'Locked') return undefined;
  if (task.runner === undefined) return 'it names no runner';
  if (task.leaseUntil !== undefined) return Date.parse(task.leaseUntil) <= nowMs ? `the lease of ${task.runner} expired at ${task.leaseUntil}` : undefined;
  return live.has(task.runner) ? undefined : `its runner ${task.runner} is not active`;
}

/**
 * Protocol 0 step 1: stale task locks (see `taskLockStaleness`, judged at `ctx.now`) go back to
 * Pending. A task lost through an expired lease also gets a Pending Work Log entry naming the lost
 * attempt (a pause, not a blocker: the next runner continues it, knowing work may be half done).
 */
export function releaseStaleLocks(log: LogFile, active: readonly string[], ctx: CommitContext & { caller?: string }): { log: LogFile; released: string[] } {
  const next = structuredClone(log);
  const released: string[] = [];
  const live = new Set(active);
  const nowMs = Date.parse(ctx.now);
  for (const task of listTasks(next)) {
    // As in triage: the caller's own lock is not stale to itself, even past its lease.
    if (ctx.caller !== undefined && task.runner === ctx.caller) continue;
    if (taskLockStaleness(task, live, nowMs) === undefined) continue;
    releaseTask(next, task, ctx);
    released.push(task.id);
  }
  return { log: released.length > 0 ? settle(next, ctx.now) : log, released };
}

/** A stale lock back to Pending, in place; an expired lease leaves its lost attempt in the Work Log. */
function releaseTask(log: LogFile, task: RoadmapItem, ctx: CommitContext): void {
  const lost = task.leaseUntil !== undefined && task.runner !== undefined ? { runner: task.runner, leaseUntil: task.leaseUntil } : undefined;
  moveTask(task, 'Pending');
  delete task.runner;
  delete task.leaseUntil;
  if (lost) pushEntry(log, { job: ctx.job ?? entryJob(log), role: 'Runner', objective: `Task ${task.text}`, result: 'Pending', summary: `Lost attempt: runner ${lost.runner} held this task until its lease expired at ${lost.leaseUntil}, without finishing or renewing it (recovered at ${ctx.now}). The task is Pending again; work may be half done.` }, ctx);
}

/** The job name for an entry the log writes itself: the newest entry's job, else `jixo`. */
function entryJob(log: LogFile): string {
  const named = log.workLog.find((e) => /^\S+$/.test(e.job));
  return named?.job ?? 'jixo';
}

/** Hands back every task `runner` holds (its agent exited): Pending again, no Work Log entry (as a stale release). */
export function releaseRunnerTasks(log: LogFile, runner: string, ctx: CommitContext): { log: LogFile; released: string[] } {
  const next = structuredClone(log);
  const released: string[] = [];
  for (const task of listTasks(next)) {
    if (task.status !== 'Locked' || task.runner !== runner) continue;
    moveTask(task, 'Pending');
    delete task.runner;
    delete task.leaseUntil;
    released.push(task.id);
  }
  return { log: released.length > 0 ? settle(next, ctx.now) : log, released };
}

/**
 * While its agent works: move the lease of every task `runner` holds to `leaseMs` after `ctx.now`.
 * Returns the ids renewed (none when the runner holds nothing, e.g. its lease expired and another
 * runner took the task: a lost task is not taken back).
 */
export function renewTaskLeases(log: LogFile, runner: string, leaseMs: number, ctx: CommitContext): { log: LogFile; renewed: string[] } {
  const next = structuredClone(log);
  const until = leaseEnd(ctx, leaseMs);
  const nowMs = Date.parse(ctx.now);
  const renewed: string[] = [];
  for (const task of listTasks(next)) {
    if (task.status !== 'Locked' || task.runner !== runner) continue;
    // An expired lease is lost even before someone takes the task over: renewing it would race them.
    if (task.leaseUntil !== undefined && Date.parse(task.leaseUntil) <= nowMs) continue;
    task.leaseUntil = until;
    renewed.push(task.id);
  }
  return { log: renewed.length > 0 ? next : log, renewed };
}

function leaseEnd(ctx: CommitContext, leaseMs: number): string {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new JixoError('bad-argument', `a task lease must be a positive number of ms, got ${String(leaseMs)}`);
  const nowMs = Date.parse(ctx.now);
  if (!Number.isFinite(nowMs)) throw new JixoError('bad-argument', `commit time "${ctx.now}" is not a time`);
  return new Date(nowMs + leaseMs).toISOString();
}

export interface AddTaskInput {
  /** Numbered id (`2.3`); the text becomes `2.3. <title>`. Omit to use the title as id. */
  id?: string;
  title: string;
  /** Id (or text) of the phase/task to nest under; top level when absent. */
  parent?: string;
  dependsOn?: string[];
  /** A phase: no status, holds tasks. */
  phase?: boolean;
}

/** Planner: add a task (Pending) or a phase. */
export function addTask(log: LogFile, input: AddTaskInput, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  const title = singleLine('title', input.title);
  if (title === '') throw new JixoError('bad-argument', 'title must not be empty');
  if (input.id !== undefined && !/^\d+(?:\.\d+)*$/.test(input.id)) throw new JixoError('bad-argument', `task id "${input.id}" must be numbers separated by dots, e.g. 2.3`);
  // A phase's title is bold, as in the seed: that is how a phase with no tasks yet is read back as a
  // phase (an item with neither status nor children is otherwise a Pending task).
  const shown = input.phase && !/^\*\*.*\*\*$/.test(title) ? `**${title}**` : title;
  const text = input.id === undefined ? shown : `${input.id}. ${shown}`;
  const id = itemId(text);
  const all: RoadmapItem[] = [];
  const visit = (xs: RoadmapItem[]): void => xs.forEach((x) => (all.push(x), visit(x.children)));
  visit(next.roadmap);
  if (all.some((t) => t.id === id)) throw new JixoError('bad-argument', `the roadmap already has an item "${id}"`);
  const item: RoadmapItem = { id, text, checked: false, notes: [], children: [] };
  if (!input.phase) item.status = 'Pending';
  if (input.dependsOn && input.dependsOn.length > 0) {
    for (const d of input.dependsOn) if (!all.some((t) => t.id === d && t.status !== undefined)) throw new JixoError('unknown-task', `dependsOn: no task "${d}"`);
    item.dependsOn = [...input.dependsOn];
  }
  if (input.parent === undefined) next.roadmap.push(item);
  else {
    const parent = all.find((t) => t.id === input.parent);
    if (!parent) throw new JixoError('unknown-task', `no roadmap item "${input.parent}" to add under`);
    parent.children.push(item);
  }
  return settle(next, ctx.now);
}

/**
 * Planner: Pending|Failed -> Cancelled, or Failed -> Pending (retry). A cancel is a transition the
 * Work Log records (Result Cancelled, by the Planner), in the same write; a retry hands the task
 * back to the runners and records nothing (the Failed entry stays the task's history).
 */
export function setTaskStatus(log: LogFile, id: string, to: Extract<TaskStatus, 'Cancelled' | 'Pending'>, ctx: CommitContext & { runner?: string; summary?: string }): LogFile {
  const next = structuredClone(log);
  const task = findTask(next, id);
  if (to === 'Pending' && task.status === 'Locked') throw new JixoError('bad-argument', `task ${id} is Locked: release it through its runner or stale-lock triage`);
  moveTask(task, to);
  delete task.runner;
  if (to === 'Cancelled') {
    const summary = ctx.summary?.trim() || `Cancelled by ${ctx.runner ?? 'the user'}.`;
    pushEntry(next, { job: ctx.job ?? entryJob(next), role: 'Planner', objective: `Task ${task.text}`, result: 'Cancelled', summary, ...(ctx.runner !== undefined ? { runner: ctx.runner } : {}) }, ctx);
  }
  return settle(next, ctx.now);
}

/** The elected Planner whose lease has not run out at `nowMs`, if any. */
export function plannerOf(log: LogFile, nowMs: number): PlannerRound | undefined {
  const p = log.frontMatter.planner;
  return p !== undefined && Date.parse(p.leaseUntil) > nowMs ? p : undefined;
}

/**
 * Record `runner` as the elected Planner for `leaseMs` (triage decided it plans). Refused while
 * another runner's round is live; re-electing the same runner moves its lease.
 */
export function electPlanner(log: LogFile, runner: string, ctx: CommitContext & { leaseMs?: number }): LogFile {
  checkRunner(runner);
  const nowMs = Date.parse(ctx.now);
  const live = plannerOf(log, nowMs);
  if (live !== undefined && live.runner !== runner) throw new JixoError('not-planner', `runner ${live.runner} is the elected Planner until ${live.leaseUntil}`);
  const next = structuredClone(log);
  next.frontMatter.planner = { runner, leaseUntil: leaseEnd(ctx, ctx.leaseMs ?? DEFAULT_TASK_LEASE_MS), since: live?.since ?? ctx.now };
  return next;
}

/** End the Planner round of `runner` (any runner's, without one); the log unchanged when it has none. */
export function endPlannerRound(log: LogFile, runner?: string): LogFile {
  const p = log.frontMatter.planner;
  if (p === undefined || (runner !== undefined && p.runner !== runner)) return log;
  const next = structuredClone(log);
  delete next.frontMatter.planner;
  return next;
}

/** While the Planner's agent works: move its round's lease (not one that ran out: another may be elected). */
export function renewPlannerLease(log: LogFile, runner: string, leaseMs: number, ctx: CommitContext): LogFile {
  const live = plannerOf(log, Date.parse(ctx.now));
  if (live?.runner !== runner) return log;
  const next = structuredClone(log);
  next.frontMatter.planner = { ...live, leaseUntil: leaseEnd(ctx, leaseMs) };
  return next;
}

/**
 * Planner: clear a blocker. The newest entry about the task must be a Pending one with a Blocker;
 * a Planner entry about the same task (saying how it was resolved) becomes the newest, so triage
 * hands the task to the next runner again.
 */
export function unblockTask(log: LogFile, id: string, input: { job: string; runner?: string; summary: string }, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  const task = findTask(next, id);
  const last = lastEntryFor(next, task);
  if (last?.result !== 'Pending' || last.blocker === undefined) throw new JixoError('illegal-transition', `task ${id} has no blocker to clear (its newest Work Log entry is not a Pending one with a Blocker)`);
  if (input.summary.trim() === '') throw new JixoError('bad-argument', 'the summary must say how the blocker was resolved');
  pushEntry(next, { job: input.job, role: 'Planner', objective: `Task ${task.text}`, result: 'Succeeded', summary: input.summary, ...(input.runner !== undefined ? { runner: input.runner } : {}) }, ctx);
  return settle(next, ctx.now);
}

/** Every roadmap item (phases and tasks), depth first, with the list that holds it. */
function allItems(log: LogFile): { item: RoadmapItem; list: RoadmapItem[] }[] {
  const out: { item: RoadmapItem; list: RoadmapItem[] }[] = [];
  const visit = (xs: RoadmapItem[]): void => xs.forEach((x) => (out.push({ item: x, list: xs }), visit(x.children)));
  visit(log.roadmap);
  return out;
}

function findItem(log: LogFile, id: string): { item: RoadmapItem; list: RoadmapItem[] } {
  const found = allItems(log).find((x) => x.item.id === id);
  if (!found) throw new JixoError('unknown-task', `no roadmap item "${id}"`);
  return found;
}

/** Planner: rename a phase or task, keeping its number (so dependencies and Work Log entries still point at it). */
export function renameItem(log: LogFile, id: string, title: string, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  const { item } = findItem(next, id);
  const t = singleLine('title', title);
  if (t === '') throw new JixoError('bad-argument', 'title must not be empty');
  if (item.id === item.text.trim()) {
    // An unnumbered item's id is its text: renaming it would orphan every dependency on it.
    if (allItems(next).some((x) => x.item.dependsOn?.includes(id))) throw new JixoError('bad-argument', `item "${id}" has no number and other tasks depend on it by its text: give it a number first`);
    if (allItems(next).some((x) => x.item !== item && (x.item.id === t || x.item.id === `**${t}**`))) throw new JixoError('bad-argument', `the roadmap already has an item "${t}"`);
    item.text = item.status === undefined && !/^\*\*.*\*\*$/.test(t) ? `**${t}**` : t;
    item.id = itemId(item.text);
  } else item.text = `${item.id}. ${item.status === undefined && !/^\*\*.*\*\*$/.test(t) ? `**${t}**` : t}`;
  return settle(next, ctx.now);
}

/** Planner: replace a task's dependencies (empty to clear); refused when they would form a cycle. */
export function setDependsOn(log: LogFile, id: string, dependsOn: readonly string[], ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  const task = findTask(next, id);
  const tasks = listTasks(next);
  for (const d of dependsOn) {
    if (d === id) throw new JixoError('bad-argument', `task ${id} cannot depend on itself`);
    if (!tasks.some((t) => t.id === d)) throw new JixoError('unknown-task', `dependsOn: no task "${d}"`);
  }
  if (dependsOn.length === 0) delete task.dependsOn;
  else task.dependsOn = [...new Set(dependsOn)];
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const reaches = (from: string, seen: Set<string>): boolean => {
    if (from === id) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    return (byId.get(from)?.dependsOn ?? []).some((d) => reaches(d, seen));
  };
  if (dependsOn.some((d) => reaches(d, new Set()))) throw new JixoError('bad-argument', `task ${id} depending on ${dependsOn.join(', ')} makes a dependency cycle`);
  return settle(next, ctx.now);
}

/**
 * Planner: remove an item that never ran. A task with a Work Log history is cancelled instead (the
 * log keeps what happened), a Locked one belongs to its runner, a phase must be empty, and nothing
 * may still depend on it.
 */
export function removeItem(log: LogFile, id: string, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  const { item, list } = findItem(next, id);
  if (item.children.length > 0) throw new JixoError('bad-argument', `item ${id} holds other items: remove or move them first`);
  if (item.status !== undefined && item.status !== 'Pending') throw new JixoError('illegal-transition', `task ${id} is ${item.status}: only a Pending task that never ran can be removed (cancel it instead)`);
  if (lastEntryFor(next, item) !== undefined) throw new JixoError('illegal-transition', `task ${id} has Work Log entries: cancel it instead, so the log keeps its history`);
  const dependents = allItems(next).filter((x) => x.item.dependsOn?.includes(id)).map((x) => x.item.id);
  if (dependents.length > 0) throw new JixoError('bad-argument', `tasks ${dependents.join(', ')} depend on ${id}: change their dependencies first`);
  list.splice(list.indexOf(item), 1);
  return settle(next, ctx.now);
}

export function setTitle(log: LogFile, title: string, ctx: CommitContext): LogFile {
  const next = structuredClone(log);
  next.frontMatter.title = singleLine('title', title);
  return settle(next, ctx.now);
}

/** jixo_tasks_exit: recorded in the front matter; the outer loop stops on code 0. Code 0 also sets progress. */
export function recordExit(log: LogFile, exit: TasksExit, ctx: CommitContext): LogFile {
  if (exit.code !== 0 && exit.code !== 1 && exit.code !== 2) throw new JixoError('bad-argument', `exit code must be 0, 1 or 2, got ${String(exit.code)}`);
  const next = settle(structuredClone(log), ctx.now);
  if (exit.code === 0 && listTasks(next).some((t) => t.status !== 'Completed' && t.status !== 'Cancelled')) {
    throw new JixoError('bad-argument', 'exit code 0 means the job is done, but some effective tasks are not Completed');
  }
  next.frontMatter.exit = { code: exit.code, reason: singleLine('reason', exit.reason), runner: exit.runner, time: exit.time };
  return next;
}

export function clearExit(log: LogFile): LogFile {
  const next = structuredClone(log);
  delete next.frontMatter.exit;
  return next;
}

function checkRunner(runner: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/.test(runner)) throw new JixoError('bad-argument', `runner id "${runner}" must be letters, digits and . _ : @ -`);
}

export { checkRunner };

/** The request's "To User" line in each language `jobLanguage` tells apart (Protocol 5, step 3). */
export const CLARIFICATION_INTRO = {
  en: 'To provide a more accurate result, I need clarification. I have proceeded with a default plan, but you can provide more detail below.',
  zh: '为了提供更准确的结果，我需要您的澄清。我已按默认计划继续推进，您可以在下方补充更多细节。',
  ja: 'より正確な結果を出すために確認させてください。既定の計画で作業を進めていますが、以下で詳細を補足できます。',
  ko: '더 정확한 결과를 위해 확인이 필요합니다. 기본 계획으로 진행했지만, 아래에 자세한 내용을 추가해 주실 수 있습니다.',
  ru: 'Чтобы дать более точный результат, мне нужно уточнение. Я продолжил работу по плану по умолчанию, но вы можете дополнить его ниже.',
} as const;

/**
 * The predominant language of a job's text, by script: kana means Japanese (it mixes in Han), then
 * whichever of Han, Hangul, Cyrillic or Latin letters is most common. Languages it cannot tell apart
 * by script fall back to English.
 */
export function jobLanguage(text: string): keyof typeof CLARIFICATION_INTRO {
  const count = (re: RegExp): number => text.match(re)?.length ?? 0;
  if (count(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) > 0 && count(/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/gu) >= count(/\p{Script=Latin}/gu) / 2) return 'ja';
  // Han characters carry a word each, Latin ones a letter: weigh them so a Chinese job with a few
  // English identifiers is still Chinese.
  const scores: [keyof typeof CLARIFICATION_INTRO, number][] = [
    ['zh', count(/\p{Script=Han}/gu) * 3],
    ['ko', count(/\p{Script=Hangul}/gu) * 2],
    ['ru', count(/\p{Script=Cyrillic}/gu)],
    ['en', count(/\p{Script=Latin}/gu)],
  ];
  const best = scores.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] === 0 ? 'en' : best[0];
}

/** Protocol 5: add a clarification request block to the job (ID must be new). */
export function addClarification(job: JobFile, input: { id: string; question: string; toUser?: string }): JobFile {
  const next = structuredClone(job);
  const id = singleLine('ID', input.id);
  if (id === '') throw new JixoError('bad-argument', 'clarification ID must not be empty');
  if (next.clarifications.some((c) => c.id === id)) throw new JixoError('bad-argument', `clarification "${id}" already exists`);
  const c: Clarification = { id, toUser: input.toUser ?? CLARIFICATION_INTRO[jobLanguage(job.goal)], question: input.question.trim(), response: '', answered: false };
  if (c.question === '') throw new JixoError('bad-argument', 'question must not be empty');
  next.clarifications.push(c);
  return next;
}

/** Protocol 4: remove an (answered) request once processed. */
export function removeClarification(job: JobFile, id: string): JobFile {
  const next = structuredClone(job);
  const at = next.clarifications.findIndex((c) => c.id === id);
  if (at < 0) throw new JixoError('unknown-clarification', `no clarification "${id}" in the job file`);
  next.clarifications.splice(at, 1);
  return next;
}
