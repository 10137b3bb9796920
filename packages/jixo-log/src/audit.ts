/**
 * Checks of a parsed log that the grammar cannot see: a task's status must be backed by the Work
 * Log. Every command that finishes a task writes the status and its entry in one write (the seed's
 * rule 1.3), so a Completed or Failed task with no entry saying so was edited by hand: the shortcut
 * of ticking a task off without doing (or recording) the work. Kept out of parseLog so such a log can
 * still be read and repaired by commands; `jixo check` reports these as errors.
 */
import { entryConcerns, listTasks } from './ops.js';
import type { Diagnostic, LogFile, RoadmapItem } from './types.js';

const RESULT_FOR: Partial<Record<string, string>> = { Completed: 'Succeeded', Failed: 'Failed' };

/** Diagnostics for statuses the Work Log does not back; `text` (the file) gives their lines. */
export function auditLog(log: LogFile, text: string): Diagnostic[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: Diagnostic[] = [];
  for (const task of listTasks(log)) {
    // A JIXO v1/v2 checklist recorded no per-task result: its ticked boxes are taken as they are.
    if (task.statusInferred === true) continue;
    const result = task.status === undefined ? undefined : RESULT_FOR[task.status];
    if (result === undefined) continue;
    const place = lineOf(lines, task);
    const backing = log.workLog.filter((e) => e.result === result && entryConcerns(e.objective, task));
    if (backing.length === 0) {
      out.push({ rule: 'status-without-entry', severity: 'error', message: `task ${task.id} is ${task.status!} but no Work Log entry about it has Result ${result}: a status changes only with its entry (ratchet jixo task complete|fail)`, line: place, column: 1 });
      continue;
    }
    // The entry that finished the task names its runner; a task claiming another runner was edited.
    const named = backing.filter((e) => e.runner !== undefined);
    if (task.runner !== undefined && named.length > 0 && !named.some((e) => e.runner === task.runner)) {
      out.push({ rule: 'status-without-entry', severity: 'error', message: `task ${task.id} is ${task.status!} by ${task.runner}, but the Work Log entries with Result ${result} about it are by ${[...new Set(named.map((e) => e.runner))].join(', ')}`, line: place, column: 1 });
    }
  }
  return out;
}

/** The 1-based line of the task's checkbox, or 1 when it cannot be found. */
function lineOf(lines: readonly string[], task: RoadmapItem): number {
  const at = lines.findIndex((l) => {
    const m = /^\s*[-*+]\s+\[[ xX]\]\s+(.*)$/.exec(l);
    return m !== null && m[1]!.trim() === task.text;
  });
  return at < 0 ? 1 : at + 1;
}
