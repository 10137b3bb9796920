/**
 * Lessons written by the original system (the seed's knowledge_compiler.py): no `history`, the
 * updater's parameter names (`tool_name`, `new_description`), and a `placeholder` command for
 * actions it could not parse. A project moving to Ratchet keeps its lessons.jsonl: such a line is
 * read as the lesson it means (a placeholder becomes a manual lesson a person handles), and only
 * rewritten, in Ratchet's format, when a command changes that lesson.
 *
 * Other shapes the original's lessons took are read too: `{"lesson": ..., "action": "..."}` (the
 * text under another key, the action as a phrase), `{"failure": ..., "actionable_change": ...}`, and
 * the status `obsolete` (a lesson nobody should apply any more: read as `resolved`).
 */
import { lessonId, parseAction } from './action-phrase.js';
import type { LessonAction } from './types.js';

/** The task of a lesson line that names none (the original's variant shapes often do not). */
export const UNKNOWN_TASK = 'unknown';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The seed-format lesson `value` in Ratchet's shape; any other value is returned unchanged. */
export function upgradeSeedLesson(value: unknown): unknown {
  if (!isObject(value) || Object.hasOwn(value, 'history')) return value;
  if (!isObject(value.action)) return upgradeVariant(value);
  const action = value.action;
  const params = isObject(action.parameters) ? action.parameters : {};
  const date = typeof value.date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value.date) ? value.date.slice(0, 10) : value.date;
  let status = value.status === 'obsolete' ? 'resolved' : value.status;
  let upgraded: Record<string, unknown>;
  switch (action.command) {
    case 'add-tool':
    case 'deprecate-tool':
      upgraded = { ...action, parameters: renameKeys(params, { tool_name: 'tool' }) };
      break;
    case 'update-rule':
      upgraded = { ...action, parameters: renameKeys(params, { new_description: 'description' }) };
      break;
    case 'propose-code-change':
      upgraded = { ...action, parameters: renameKeys(params, { details: 'diff' }) };
      break;
    case 'placeholder': {
      // The original kept no action text for a placeholder, only its (usually empty) parameters.
      const text = Object.keys(params).length > 0 ? JSON.stringify(params) : 'no command: the original system could not parse this action; a person decides';
      upgraded = { type: 'MANUAL', command: 'manual', parameters: { text } };
      if (status === 'pending') status = 'manual';
      break;
    }
    default:
      // Not a command either format knows: left as is, so the problem reported is the command.
      upgraded = action;
  }
  const time = typeof date === 'string' ? date : '';
  const reason = value.status === 'obsolete' ? 'read from a lessons.jsonl line in the original format, marked obsolete there' : 'read from a lessons.jsonl line in the original format';
  return { ...value, date, status, action: upgraded, history: [{ status, time, reason }] };
}

const LESSON_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/**
 * `{lesson|insight|failure, action (a phrase)|actionable_change, ...}` as a lesson; a value with none
 * of those keys is returned unchanged (its problem is then reported as it is). The action phrase is
 * read exactly as in a post-mortem, so the same lesson has the same meaning (and id) both ways.
 */
function upgradeVariant(value: Record<string, unknown>): unknown {
  const insight = text(value.insight) ?? text(value.lesson) ?? text(value.failure);
  const phrase = text(value.actionable_change) ?? text(value.action);
  if (insight === undefined && phrase === undefined) return value;
  const action: LessonAction = parseAction(phrase ?? '');
  const taskId = text(value.task_id) ?? UNKNOWN_TASK;
  const when = text(value.date) ?? text(value.timestamp);
  const date = when !== undefined && /^\d{4}-\d{2}-\d{2}/.test(when) ? when.slice(0, 10) : undefined;
  const original = text(value.status);
  const status =
    original === 'obsolete' || original === 'resolved' ? 'resolved'
    : original === 'applied' || original === 'failed' ? original
    : action.type === 'MANUAL' ? 'manual'
    : 'pending';
  const id = typeof value.lesson_id === 'string' && LESSON_ID.test(value.lesson_id) ? value.lesson_id : lessonId(taskId, insight ?? '', action);
  const notes = [original === 'obsolete' ? 'marked obsolete there' : '', date === undefined ? 'it had no date' : ''].filter((n) => n !== '');
  const reason = `read from a lessons.jsonl line in one of the original's other shapes${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  // An undated line keeps a placeholder day: the lesson must stay readable, and the history says why.
  return { lesson_id: id, task_id: taskId, date: date ?? '1970-01-01', insight: insight ?? '', action, status, history: [{ status, time: date ?? '1970-01-01', reason }] };
}

function renameKeys(params: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(params)) out[Object.hasOwn(names, key) ? names[key]! : key] = v;
  return out;
}
