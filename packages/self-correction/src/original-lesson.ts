/**
 * Lessons written by the original system's own tools, read as the lessons they mean. A project moving
 * to Ratchet keeps its lessons.jsonl: such a line is read in place and only rewritten, in Ratchet's
 * shape, when a command changes that lesson. The shapes (all from SynthPlayground's history):
 *
 * - knowledge_compiler.py: `{lesson_id, task_id, date, insight | lesson, action: {type, command,
 *   parameters}, status}`, with the updater's parameter names (`tool_name`, `new_description`, a code
 *   change's `details`) and a `placeholder` command for actions it could not parse (its text in
 *   `parameters.description`): a placeholder becomes a manual lesson a person handles;
 * - capability_verifier.py: `{lesson_id, status, failure, action: {type, parameters}}` (no command;
 *   sometimes a `lesson` text);
 * - the structured post-mortem generator: `{lesson_id, task_id, date, category, severity,
 *   description, actionable_change: {type, details: {target_file, change_description, ...}}, status}`;
 * - hand-written variants: `{lesson, action: "<phrase>"}`, `{failure, actionable_change: "<phrase>"}`;
 *   the status `obsolete` (read as `resolved`: nobody should apply it any more).
 *
 * Fields Ratchet's shape has no place for are kept under `extra`, as they were. A line that is in
 * one of these shapes but says nothing at all (the original extracted `"**Action:** 2.  **Lesson:**"`
 * from its own unfilled template, under task `[TASK_ID]`) is refused with that reason.
 */
import { lessonId, parseAction } from './action-phrase.js';
import { isBracketPlaceholder, wordCount } from './substance.js';
import type { LessonAction } from './types.js';

/** The task of a lesson line that names none (the original's variant shapes often do not). */
export const UNKNOWN_TASK = 'unknown';

/** The day an undated line gets (its history says it had none). */
const NO_DATE = '1970-01-01';

export type OriginalLesson =
  /** Not one of the original's shapes (Ratchet's own, or no lesson at all): check it as it is. */
  | { kind: 'as-is'; value: unknown }
  | { kind: 'lesson'; value: Record<string, unknown> }
  /** One of the original's shapes, holding no lesson. */
  | { kind: 'empty'; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const LESSON_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const LESSON_KEYS = ['insight', 'lesson', 'description', 'failure', 'action', 'actionable_change'];
const STATUSES = new Set(['pending', 'applied', 'failed', 'manual', 'resolved']);
// Ratchet's keys, and those whose value the lesson carries verbatim under another name.
const CARRIED = new Set(['lesson_id', 'task_id', 'date', 'insight', 'status', 'history', 'extra']);

/** The lesson a value in one of the original's shapes means (see the module comment). */
export function readOriginalLesson(value: unknown): OriginalLesson {
  if (!isObject(value) || Object.hasOwn(value, 'history') || !LESSON_KEYS.some((k) => Object.hasOwn(value, k))) return { kind: 'as-is', value };
  const used = new Set(CARRIED);
  const insightKey = ['insight', 'lesson', 'description'].find((k) => text(value[k]) !== undefined);
  let insight = insightKey === undefined ? undefined : text(value[insightKey]);
  if (insightKey !== undefined) used.add(insightKey);
  if (insight === undefined && text(value.failure) !== undefined) {
    insight = text(value.failure);
    used.add('failure');
  } else if (insight === undefined && isObject(value.failure)) {
    // The verifier's failure record stays under `extra`; its summary is the lesson's text.
    insight = failureSummary(value.failure);
  }

  const read = readAction(value);
  if (read.key !== undefined) used.add(read.key);
  const action = read.action;

  const taskText = text(value.task_id);
  const taskId = taskText === undefined || isBracketPlaceholder(taskText) ? UNKNOWN_TASK : taskText;
  const labelFree = (insight ?? '').replace(/(?:\*\*|__)?\b(?:lesson|action)(?:\s+\d+)?\s*:\s*(?:\*\*|__)?/gi, ' ');
  if (wordCount(labelFree) === 0 && wordCount(action.command === 'manual' ? action.parameters.text : 'recognised command') === 0) {
    const where = taskText !== undefined && taskId === UNKNOWN_TASK ? ` (task "${taskText}": the original extracted it from an unfilled template)` : '';
    return { kind: 'empty', problem: `not a lesson: neither its text ${JSON.stringify(insight ?? '')} nor its action says anything${where}; remove the line` };
  }

  const when = text(value.date) ?? text(value.timestamp);
  if (when !== undefined && text(value.date) === undefined) used.add('timestamp');
  const date = when !== undefined && /^\d{4}-\d{2}-\d{2}/.test(when) ? when.slice(0, 10) : undefined;
  const original = text(value.status);
  const status: unknown =
    original === undefined ? (action.type === 'MANUAL' ? 'manual' : 'pending')
    : original === 'obsolete' ? 'resolved'
    : original === 'pending' && action.type === 'MANUAL' ? 'manual'
    : STATUSES.has(original) ? original
    : original; // not a status either format knows: reported as it is, never guessed
  const id = typeof value.lesson_id === 'string' && LESSON_ID.test(value.lesson_id) ? value.lesson_id : lessonId(taskId, insight ?? '', action);
  const notes = [
    original === 'obsolete' ? 'marked obsolete there' : '',
    date === undefined ? (when === undefined ? 'it had no date' : `its date ${JSON.stringify(when)} is no date`) : '',
    taskText !== undefined && taskId === UNKNOWN_TASK ? `its task ${JSON.stringify(taskText)} is a placeholder` : '',
  ].filter((n) => n !== '');
  const reason = `read from a lessons.jsonl line in the original format${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  const extra: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!used.has(key)) extra[key] = v;
  const lesson: Record<string, unknown> = {
    lesson_id: id,
    task_id: taskId,
    date: date ?? NO_DATE,
    insight: insight ?? '',
    action,
    status,
    history: [{ status, time: date ?? NO_DATE, reason }],
  };
  if (Object.keys(extra).length > 0) lesson.extra = extra;
  return { kind: 'lesson', value: lesson };
}

/**
 * The action of an original line, and the key it came from. An action object with a command neither
 * format knows is kept as it is, so the check reports that command at its line: nothing is guessed.
 */
function readAction(value: Record<string, unknown>): { action: LessonAction; key?: string } {
  const raw = value.action;
  if (isObject(raw)) return { action: actionObject(raw) ?? (raw as unknown as LessonAction), key: 'action' };
  const phrase = text(raw) ?? text(value.actionable_change);
  if (phrase !== undefined) return { action: parseAction(phrase), key: text(raw) !== undefined ? 'action' : 'actionable_change' };
  if (isObject(value.actionable_change)) {
    // The structured generator's change: its description is the action; the whole record stays under `extra`.
    const change = value.actionable_change;
    const details = isObject(change.details) ? change.details : {};
    const described = text(details.change_description) ?? text(change.description) ?? text(change.type) ?? '';
    return { action: { type: 'MANUAL', command: 'manual', parameters: { text: described, note: 'a structured change from the original system: see extra.actionable_change' } } };
  }
  return { action: { type: 'MANUAL', command: 'manual', parameters: { text: '', note: 'the lesson has no action' } } };
}

/** An action object in the original's shape, as Ratchet's; undefined for a command neither format knows. */
function actionObject(action: Record<string, unknown>): LessonAction | undefined {
  const params = isObject(action.parameters) ? action.parameters : {};
  const command = action.command ?? (action.type === 'PROPOSE_CODE_CHANGE' ? 'propose-code-change' : undefined);
  switch (command) {
    case 'add-tool':
    case 'deprecate-tool':
      return { type: 'UPDATE_PROTOCOL', command, parameters: renameKeys(params, { tool_name: 'tool' }) } as LessonAction;
    case 'update-rule':
      return { type: 'UPDATE_PROTOCOL', command, parameters: renameKeys(params, { new_description: 'description' }) } as LessonAction;
    case 'propose-code-change':
      return { type: 'PROPOSE_CODE_CHANGE', command, parameters: renameKeys(params, { details: 'diff' }) } as LessonAction;
    case 'placeholder': {
      // The original kept the action it could not parse as text in `description` (sometimes nothing).
      const described = text(params.description);
      const rest = Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'description'));
      const textOf = described ?? (Object.keys(rest).length > 0 ? JSON.stringify(rest) : '');
      return { type: 'MANUAL', command: 'manual', parameters: { text: textOf, note: 'the original system could not parse this action; a person decides' } };
    }
    case undefined:
      return { type: 'MANUAL', command: 'manual', parameters: { text: JSON.stringify(action), note: 'an action without a command from the original system; a person decides' } };
    default:
      return undefined;
  }
}

/** The verifier's failure record in one line: what failed, and the first line of why. */
function failureSummary(failure: Record<string, unknown>): string | undefined {
  const what = text(failure.test_file) ?? text(failure.type);
  // A test run's output: its error line says the most ("AttributeError: module 'x' has no attribute 'y'").
  const lines = (text(failure.details) ?? text(failure.error_message) ?? '').split('\n').filter((l) => /\p{L}/u.test(l));
  const why = lines.findLast((l) => /^\s*\w*(?:Error|Exception)\b[^:]*:/.test(l)) ?? lines[0];
  if (what === undefined && why === undefined) return undefined;
  return [what, why?.trim()].filter((p) => p !== undefined).join(': ');
}

function renameKeys(params: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(params)) out[Object.hasOwn(names, key) ? names[key]! : key] = v;
  return out;
}
