/**
 * The audit of a log's change: what the grammar cannot see. Every command writes a task's status
 * with its Work Log entry (the seed's rule 1.3), and only the elected Planner (or the user) changes
 * the plan, so a change made any other way is a shortcut: a task ticked off by hand, an entry forged
 * or edited, a plan changed by a runner.
 *
 * The audit compares the log with its baseline: the last version Ratchet wrote or a person
 * accepted (the copy kept beside the file, see files.ts). A log Ratchet has never written (imported
 * from JIXO, or new) has no baseline: it is taken as it is first seen, whatever its history, and
 * audited from there. One audit serves every command (check, triage, run, lock, unlock, doctor).
 */
import { legalMoves } from './machine.js';
import { entryConcerns, listTasks, plannerOf } from './ops.js';
import type { Diagnostic, LogFile, RoadmapItem, TaskStatus, WorkLogEntry } from './types.js';

export interface AuditOptions {
  /**
   * The last good version (what Ratchet last wrote, or a person accepted). Undefined: the log is
   * seen for the first time and taken as it is (nothing to report).
   */
  baseline?: LogFile;
  /**
   * The change was made by this runner while it held the log lock (the seed's read-modify-write,
   * checked at `jixo unlock`): its own moves are judged like the commands would judge them. Without
   * it the change was made outside Ratchet, where no status and no Work Log entry may change.
   */
  holder?: string;
  /** The holder may make Planner moves: the user acts, or the baseline's elected Planner is the holder. */
  userActs?: boolean;
  /** The time leases and the Planner round are judged at (ms). */
  now?: number;
}

/** Result an entry must have to back a status. */
const RESULT_FOR: Partial<Record<TaskStatus, string>> = { Completed: 'Succeeded', Failed: 'Failed', Cancelled: 'Cancelled' };

/** Diagnostics for what changed since `baseline` without the command (or the role) that makes it; `text` gives the lines. */
export function auditLog(log: LogFile, text: string, options: AuditOptions = {}): Diagnostic[] {
  const { baseline, holder } = options;
  if (baseline === undefined) return [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: Diagnostic[] = [];
  const nowMs = options.now ?? Date.now();
  const planner = options.userActs === true || (holder !== undefined && plannerOf(baseline, nowMs)?.runner === holder);
  const outside = holder === undefined;
  // What a person can do about a change made outside Ratchet (an agent is refused both).
  const how = outside ? 'outside Ratchet (a person puts the last good version back with ratchet jixo restore, or keeps the change with ratchet jixo accept)' : `by ${holder} under the log lock`;

  // Entries are never edited or removed once written.
  const before = new Map(baseline.workLog.map((e) => [e.number, e]));
  const now = new Map(log.workLog.map((e) => [e.number, e]));
  for (const [n, e] of before) {
    const after = now.get(n);
    if (after === undefined) out.push(error('entry-edited', `Work Log entry ${n} was removed ${how}: entries are never removed`, entryLine(lines, log.workLog[0]) ?? 1));
    else if (!sameEntry(e, after)) out.push(error('entry-edited', `Work Log entry ${n} was changed ${how}: entries are never edited once written`, entryLine(lines, after) ?? 1));
  }
  const added = log.workLog.filter((e) => !before.has(e.number));

  const oldTasks = new Map(listTasks(baseline).map((t) => [t.id, t]));
  const newIds = new Set(listTasks(log).map((t) => t.id));
  const backed = new Set<WorkLogEntry>();
  for (const task of listTasks(log)) {
    const old = oldTasks.get(task.id);
    const at = taskLine(lines, task);
    const from = old?.status;
    const to = task.status!;
    if (old === undefined) {
      if (to !== 'Pending') out.push(error('status-without-entry', `task ${task.id} was added ${how} as ${to}: a new task is Pending (its status changes with its Work Log entry)`, at));
      else if (!planner && !outside) out.push(error('not-planner', `task ${task.id} was added by ${holder}, which is not the elected Planner: changing the plan is the Planner's or the user's`, at));
      continue;
    }
    if (from === to) {
      if (to === 'Locked' && old.runner !== task.runner && (outside || task.runner !== holder || old.leaseUntil === undefined || Date.parse(old.leaseUntil) > nowMs)) {
        out.push(error('already-locked', `task ${task.id} was locked by ${old.runner ?? 'nobody'} and now names ${task.runner ?? 'nobody'} (changed ${how}): a lock is taken over only once its lease has run out, through ratchet jixo task lock`, at));
      }
      if ((to === 'Completed' || to === 'Failed') && old.runner !== task.runner) out.push(error('status-without-entry', `task ${task.id} is ${to} by ${task.runner ?? 'nobody'}, but ${old.runner ?? 'nobody'} finished it: the runner of a finished task changed ${how}`, at));
      if (!planner && !outside && planChanged(old, task)) out.push(error('not-planner', `task ${task.id} was changed by ${holder}, which is not the elected Planner: changing the plan is the Planner's or the user's`, at));
      continue;
    }
    if (outside) {
      out.push(error('status-without-entry', `task ${task.id} changed from ${from!} to ${to} ${how}: a status changes only with its Work Log entry, through ratchet jixo task lock|complete|fail|pause|cancel|retry (or under ratchet jixo lock)`, at));
      continue;
    }
    const problem = holderMove(old, task, holder, planner, added, backed);
    if (problem !== undefined) {
      out.push(error(problem.rule, `task ${task.id}: ${from!} -> ${to} by ${holder}: ${problem.why}`, at));
      // The move is the problem; its entry is not reported a second time.
      for (const e of added) if (entryConcerns(e.objective, task)) backed.add(e);
    }
  }
  for (const [id, old] of oldTasks) {
    if (newIds.has(id)) continue;
    const ran = baseline.workLog.some((e) => entryConcerns(e.objective, old));
    if (ran || old.status !== 'Pending') out.push(error('status-without-entry', `task ${id} (${old.status!}) was removed ${how}: a task that ran or was decided on is cancelled, never removed`, 1));
    else if (!planner && !outside) out.push(error('not-planner', `task ${id} was removed by ${holder}, which is not the elected Planner`, 1));
  }
  // The loop's own records: only `ratchet jixo exit` and triage write them.
  const fmLine = (key: string): number => Math.max(1, lines.findIndex((l) => l.startsWith(`${key}:`)) + 1);
  if (JSON.stringify(baseline.frontMatter.exit ?? null) !== JSON.stringify(log.frontMatter.exit ?? null)) out.push(error('state-edited', `the recorded exit was changed ${how}: it is written only by ratchet jixo exit (and jixo run)`, fmLine('exit')));
  if (JSON.stringify(baseline.frontMatter.planner ?? null) !== JSON.stringify(log.frontMatter.planner ?? null)) out.push(error('state-edited', `the elected Planner was changed ${how}: it is recorded only by triage (ratchet jixo triage, jixo run)`, fmLine('planner')));
  if (!planner && !outside && baseline.frontMatter.title !== log.frontMatter.title) out.push(error('not-planner', `the title was changed by ${holder}, which is not the elected Planner`, 2));

  // A new entry comes with the transition it records: about a task, it must back that task's move.
  for (const e of added) {
    if (backed.has(e)) continue;
    const task = listTasks(log).find((t) => entryConcerns(e.objective, t));
    const at = entryLine(lines, e) ?? 1;
    if (outside) out.push(error('entry-without-transition', `Work Log entry ${e.number} was written ${how}: entries come only with the transitions they record (ratchet jixo task complete|fail|pause|cancel, log add for a Planner)`, at));
    else if (task !== undefined && e.result !== 'Pending') out.push(error('entry-without-transition', `Work Log entry ${e.number} (Result ${e.result}) is about task ${task.id}, whose status did not change with it`, at));
    else if (task === undefined && !planner) out.push(error('not-planner', `Work Log entry ${e.number} is a Planner's record, and ${holder} is not the elected Planner`, at));
  }
  return out;
}

/** Why a status move made by the lock holder is not one the commands would make, or undefined. */
function holderMove(old: RoadmapItem, task: RoadmapItem, holder: string, planner: boolean, added: readonly WorkLogEntry[], backed: Set<WorkLogEntry>): { rule: string; why: string } | undefined {
  const from = old.status!;
  const to = task.status!;
  if (!legalMoves(from).includes(to)) return { rule: 'illegal-transition', why: `not a move of the task state machine (from ${from}: ${legalMoves(from).join(', ') || 'final'})` };
  const entry = (result: string): WorkLogEntry | undefined => added.find((e) => !backed.has(e) && e.result === result && entryConcerns(e.objective, task) && (e.runner === undefined || e.runner === holder));
  if (from === 'Pending' && to === 'Locked') return task.runner === holder ? undefined : { rule: 'wrong-runner', why: `a runner locks a task for itself, not for ${task.runner ?? 'nobody'}` };
  if (from === 'Locked') {
    if (old.runner !== holder) return { rule: 'wrong-runner', why: `the task is ${old.runner ?? 'nobody'}'s` };
    const result = RESULT_FOR[to] ?? 'Pending';
    const e = entry(result);
    if (e === undefined && to !== 'Pending') return { rule: 'status-without-entry', why: `no new Work Log entry about it with Result ${result} (the status and its entry are one commit)` };
    if (e !== undefined) backed.add(e);
    return undefined;
  }
  // Pending|Failed -> Cancelled, Failed -> Pending: the Planner's moves.
  if (!planner) return { rule: 'not-planner', why: 'cancelling and retrying are the elected Planner\'s or the user\'s' };
  if (to === 'Cancelled') {
    const e = entry('Cancelled');
    if (e === undefined) return { rule: 'status-without-entry', why: 'no new Work Log entry about it with Result Cancelled' };
    backed.add(e);
  }
  return undefined;
}

/** Whether a Planner move changed the task: its text, its dependencies. */
function planChanged(a: RoadmapItem, b: RoadmapItem): boolean {
  return a.text !== b.text || (a.dependsOn ?? []).join(',') !== (b.dependsOn ?? []).join(',');
}

function sameEntry(a: WorkLogEntry, b: WorkLogEntry): boolean {
  if (a.legacy !== undefined || b.legacy !== undefined) return a.legacy?.text === b.legacy?.text;
  return a.job === b.job && a.time === b.time && a.role === b.role && a.objective === b.objective && a.result === b.result && a.summary === b.summary && a.runner === b.runner && a.blocker === b.blocker && a.extra === b.extra;
}

function error(rule: string, message: string, line: number): Diagnostic {
  return { rule, severity: 'error', message, line, column: 1 };
}

/** The 1-based line of the task's checkbox, or 1 when it cannot be found. */
function taskLine(lines: readonly string[], task: RoadmapItem): number {
  const at = lines.findIndex((l) => {
    const m = /^\s*[-*+]\s+\[[ xX]\]\s+(.*)$/.exec(l);
    return m !== null && m[1]!.trim() === task.text;
  });
  return at < 0 ? 1 : at + 1;
}

/** The 1-based line where an entry starts (its heading, or its v1 bullet), if found. */
function entryLine(lines: readonly string[], entry: WorkLogEntry | undefined): number | undefined {
  if (entry === undefined) return undefined;
  const first = entry.legacy !== undefined ? entry.legacy.text.split('\n', 1)[0]! : `### Log ${entry.number} @${entry.job} (${entry.time})`;
  const at = lines.findIndex((l) => l.trimEnd() === first.trimEnd());
  return at < 0 ? undefined : at + 1;
}
