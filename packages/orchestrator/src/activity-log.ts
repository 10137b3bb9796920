/**
 * The activity log (logs/activity.log.jsonl): one JSON object per line with the seed's
 * LOGGING_SCHEMA fields, appended through @ratchet/store (locked, atomic; a file with a bad line is
 * refused rather than appended to). The JSON Schema is schemas/activity-log-entry.schema.json.
 */
import { openJsonl, parseJson, type JsonlFile, type WriterOptions } from '@ratchet/store';
import { currentStep } from './current-step.js';
import type { Clock, Session } from './types.js';
import { activityEntryValidator } from './validate.js';

export const ACTIVITY_LOG_PATH = 'logs/activity.log.jsonl';

export type ActivityStatus = 'SUCCESS' | 'FAILURE' | 'INFO';

export interface ActivityEntry {
  log_id: string;
  session_id: string;
  timestamp: string;
  phase: string;
  task: { id: string; plan_step: number | null };
  action: { type: string; details: Record<string, unknown> };
  outcome: { status: ActivityStatus; message: string };
}

export interface ActivityInput {
  /** TASK_START, PLAN_ACCEPTED, STEP_COMPLETE, ... */
  type: string;
  status: ActivityStatus;
  message: string;
  details?: Record<string, unknown>;
  /** The lifecycle state the action happened in (default: the session's state). */
  phase?: string;
}

/** An entry for `session` (its task, session id, and current plan step). Ids come from randomUUID unless given. */
export function activityEntry(session: Session, input: ActivityInput, options: Clock & { logId?: string }): ActivityEntry {
  return {
    log_id: options.logId ?? crypto.randomUUID(),
    session_id: session.sessionId ?? session.taskId,
    timestamp: options.now().toISOString(),
    phase: input.phase ?? session.state,
    task: { id: session.taskId, plan_step: currentStep(session)?.index ?? null },
    action: { type: input.type, details: input.details ?? {} },
    outcome: { status: input.status, message: input.message },
  };
}

/** The log file at `path` (create-on-append, parent directories included). */
export function openActivityLog(path: string, options: WriterOptions = {}): JsonlFile<ActivityEntry> {
  return openJsonl(path, { createParentDirs: true, ...options, schema: activityEntryValidator });
}

/**
 * Every line of an existing activity log that is not one JSON object, with its line number: the
 * log a project kept before Ratchet (the original's own LOGGING_SCHEMA: `evidence_citation`,
 * `plan_step: -1`, sometimes two objects on one line) is history to keep, not a reason to stop a
 * task. The CLI warns with file:line and appends after it (`appendFast` never rewrites old lines).
 */
export function scanActivityLog(text: string, path = ACTIVITY_LOG_PATH): { entries: number; problems: { line: number; message: string }[] } {
  const problems: { line: number; message: string }[] = [];
  let entries = 0;
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '') return;
      try {
        const value = parseJson(line, { path, firstLine: i + 1 });
        if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push({ line: i + 1, message: 'not a JSON object' });
        else entries++;
      } catch (err) {
        const e = err as { reason?: string; column?: number; message: string };
        problems.push({ line: i + 1, message: `${e.reason ?? e.message}${e.column !== undefined ? ` (column ${e.column})` : ''}` });
      }
    });
  return { entries, problems };
}
