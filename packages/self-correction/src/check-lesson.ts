/**
 * Hand-written validation of a lessons.jsonl line (the CLI must not load zod at start-up). Mirrors
 * LessonSchema in schema.ts; a test runs both over valid and invalid samples to keep them in step.
 * Returns the first problem as `pointer: message`, or undefined when the value is a Lesson.
 */
import type { Lesson } from './types.js';

// Kept in step with schema.ts (a test compares them); not imported from there, which would load zod.
const LESSON_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const STATUSES = new Set(['pending', 'applied', 'failed', 'manual', 'resolved']);
const ACTION_SHAPES: Record<string, { type: string; params: Record<string, 'text' | 'string' | 'optional-string'> }> = {
  'add-tool': { type: 'UPDATE_PROTOCOL', params: { protocol_id: 'text', tool: 'text' } },
  'deprecate-tool': { type: 'UPDATE_PROTOCOL', params: { protocol_id: 'text', tool: 'text' } },
  'update-rule': { type: 'UPDATE_PROTOCOL', params: { protocol_id: 'text', rule_id: 'text', description: 'text' } },
  'propose-code-change': { type: 'PROPOSE_CODE_CHANGE', params: { filepath: 'text', diff: 'text' } },
  manual: { type: 'MANUAL', params: { text: 'string', note: 'optional-string' } },
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isSha256 = (v: unknown): boolean => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], at: string): string | undefined {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) return `${at}/${key}: unknown property`;
  return undefined;
}

export function checkLesson(value: unknown): string | undefined {
  if (!isObject(value)) return '(line): a lesson must be a JSON object';
  const unknown = onlyKeys(value, ['lesson_id', 'task_id', 'date', 'insight', 'action', 'status', 'history', 'extra'], '');
  if (unknown !== undefined) return unknown;
  if (value.extra !== undefined && !isObject(value.extra)) return '/extra: must be an object';
  if (typeof value.lesson_id !== 'string' || !LESSON_ID.test(value.lesson_id)) return '/lesson_id: must be letters, digits, ".", "_" or "-" (it names files)';
  if (!isText(value.task_id)) return '/task_id: must be a non-empty string';
  if (typeof value.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.date)) return '/date: must be YYYY-MM-DD';
  if (typeof value.insight !== 'string') return '/insight: must be a string';
  if (typeof value.status !== 'string' || !STATUSES.has(value.status)) return `/status: must be one of ${[...STATUSES].join(', ')}`;
  const action = value.action;
  if (!isObject(action)) return '/action: must be an object';
  const actionExtra = onlyKeys(action, ['type', 'command', 'parameters'], '/action');
  if (actionExtra !== undefined) return actionExtra;
  const shape = typeof action.command === 'string' ? ACTION_SHAPES[action.command] : undefined;
  if (shape === undefined || !Object.hasOwn(ACTION_SHAPES, action.command as string)) return `/action/command: must be one of ${Object.keys(ACTION_SHAPES).join(', ')}`;
  if (action.type !== shape.type) return `/action/type: must be ${shape.type} for ${String(action.command)}`;
  const params = action.parameters;
  if (!isObject(params)) return '/action/parameters: must be an object';
  const paramExtra = onlyKeys(params, Object.keys(shape.params), '/action/parameters');
  if (paramExtra !== undefined) return paramExtra;
  for (const [key, kind] of Object.entries(shape.params)) {
    const v = params[key];
    if (kind === 'text' && !isText(v)) return `/action/parameters/${key}: must be a non-empty string`;
    if (kind === 'string' && typeof v !== 'string') return `/action/parameters/${key}: must be a string`;
    if (kind === 'optional-string' && v !== undefined && typeof v !== 'string') return `/action/parameters/${key}: must be a string`;
  }
  if (!Array.isArray(value.history)) return '/history: must be an array';
  for (const [i, entry] of value.history.entries()) {
    if (!isObject(entry)) return `/history/${i}: must be an object`;
    const histExtra = onlyKeys(entry, ['status', 'time', 'reason', 'changes'], `/history/${i}`);
    if (histExtra !== undefined) return histExtra;
    if (typeof entry.status !== 'string' || !STATUSES.has(entry.status)) return `/history/${i}/status: must be a lesson status`;
    if (!isText(entry.time)) return `/history/${i}/time: must be a non-empty string`;
    if (typeof entry.reason !== 'string') return `/history/${i}/reason: must be a string`;
    if (entry.changes !== undefined) {
      if (!Array.isArray(entry.changes)) return `/history/${i}/changes: must be an array`;
      for (const [c, change] of entry.changes.entries()) {
        const at = `/history/${i}/changes/${c}`;
        if (!isObject(change)) return `${at}: must be an object`;
        const changeExtra = onlyKeys(change, ['file', 'before', 'after'], at);
        if (changeExtra !== undefined) return changeExtra;
        if (!isText(change.file)) return `${at}/file: must be a non-empty string`;
        if (change.before !== null && !isSha256(change.before)) return `${at}/before: must be a SHA-256 (hex) or null`;
        if (!isSha256(change.after)) return `${at}/after: must be a SHA-256 (hex)`;
      }
    }
  }
  return undefined;
}

export function isLesson(value: unknown): value is Lesson {
  return checkLesson(value) === undefined;
}
