/**
 * Lessons written by the original system (the seed's knowledge_compiler.py): no `history`, the
 * updater's parameter names (`tool_name`, `new_description`), and a `placeholder` command for
 * actions it could not parse. A project moving to Ratchet keeps its lessons.jsonl: such a line is
 * read as the lesson it means (a placeholder becomes a manual lesson a person handles), and only
 * rewritten, in Ratchet's format, when a command changes that lesson.
 */

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The seed-format lesson `value` in Ratchet's shape; any other value is returned unchanged. */
export function upgradeSeedLesson(value: unknown): unknown {
  if (!isObject(value) || Object.hasOwn(value, 'history') || !isObject(value.action)) return value;
  const action = value.action;
  const params = isObject(action.parameters) ? action.parameters : {};
  const date = typeof value.date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value.date) ? value.date.slice(0, 10) : value.date;
  let status = value.status;
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
  return { ...value, date, status, action: upgraded, history: [{ status, time, reason: 'read from a lessons.jsonl line in the original format' }] };
}

function renameKeys(params: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(params)) out[Object.hasOwn(names, key) ? names[key]! : key] = v;
  return out;
}
