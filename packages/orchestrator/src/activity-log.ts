/**
 * The activity log (logs/activity.log.jsonl): one JSON object per line with the seed's
 * LOGGING_SCHEMA fields, appended through @ratchet/store (locked, atomic; a file with a bad line is
 * refused rather than appended to). The JSON Schema is schemas/activity-log-entry.schema.json.
 */
import { openJsonl, type JsonlFile, type WriterOptions } from '@ratchet/store';
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
