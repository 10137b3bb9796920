/**
 * Hand-written validators for the session and the activity log, shaped like zod's `safeParse` so
 * @ratchet/store can use them. They exist only to keep zod (~100 ms to import) off the CLI's hot
 * path; src/schema.ts stays the source of truth and test/validate.test.ts checks that both give
 * the same verdict on generated values.
 */
import type { SafeParseResult, Schema, SchemaIssue } from '@ratchet/store';
import type { ActivityEntry } from './activity-log.js';
import type { Session } from './types.js';

type Path = PropertyKey[];
type Check = (value: unknown, path: Path, issues: SchemaIssue[]) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const text: Check = (v, path, issues) => {
  if (typeof v !== 'string') issues.push({ path, message: `expected a string, found ${kind(v)}` });
  else if (v.length === 0) issues.push({ path, message: 'must not be empty' });
};
const anyString: Check = (v, path, issues) => {
  if (typeof v !== 'string') issues.push({ path, message: `expected a string, found ${kind(v)}` });
};
const count: Check = (v, path, issues) => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) issues.push({ path, message: `expected a non-negative integer, found ${JSON.stringify(v) ?? kind(v)}` });
};
const nullable =
  (check: Check): Check =>
  (v, path, issues) => {
    if (v !== null) check(v, path, issues);
  };
const oneOf =
  (...allowed: string[]): Check =>
  (v, path, issues) => {
    if (typeof v !== 'string' || !allowed.includes(v)) issues.push({ path, message: `expected one of ${allowed.join(', ')}, found ${JSON.stringify(v) ?? kind(v)}` });
  };
const matches =
  (re: RegExp, what: string): Check =>
  (v, path, issues) => {
    if (typeof v !== 'string' || !re.test(v)) issues.push({ path, message: `expected ${what}, found ${JSON.stringify(v) ?? kind(v)}` });
  };
const arrayOf =
  (item: Check): Check =>
  (v, path, issues) => {
    if (!Array.isArray(v)) issues.push({ path, message: `expected an array, found ${kind(v)}` });
    else v.forEach((x, i) => item(x, [...path, i], issues));
  };
const recordOf =
  (value: Check): Check =>
  (v, path, issues) => {
    if (!isObject(v)) issues.push({ path, message: `expected an object, found ${kind(v)}` });
    else for (const [k, x] of Object.entries(v)) value(x, [...path, k], issues);
  };
const anyRecord: Check = (v, path, issues) => {
  if (!isObject(v)) issues.push({ path, message: `expected an object, found ${kind(v)}` });
};

/** A strict object: required and optional keys, nothing else (like zod's strictObject). */
function object(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  return (v, path, issues) => {
    if (!isObject(v)) {
      issues.push({ path, message: `expected an object, found ${kind(v)}` });
      return;
    }
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(v, key) || v[key] === undefined) issues.push({ path: [...path, key], message: `required property "${key}" is missing` });
      else check(v[key], [...path, key], issues);
    }
    for (const [key, check] of Object.entries(optional)) if (Object.hasOwn(v, key) && v[key] !== undefined) check(v[key], [...path, key], issues);
    for (const key of Object.keys(v)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) issues.push({ path: [...path, key], message: `unknown property "${key}"` });
    }
  };
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

function schemaOf<T>(check: Check): Schema<T> {
  return {
    safeParse(input: unknown): SafeParseResult<T> {
      const issues: SchemaIssue[] = [];
      check(input, [], issues);
      return issues.length === 0 ? { success: true, data: input as T } : { success: false, error: { issues } };
    },
  };
}

const planFrame = object({ planPath: text, steps: arrayOf(anyString), current: count });
const historyEntry = object({ at: text, from: text, trigger: text, to: text }, { message: anyString });

/** Same shape as SessionSchema in schema.ts. */
export const sessionValidator: Schema<Session> = schemaOf<Session>(
  object(
    { taskId: text, state: text, stack: arrayOf(planFrame), history: arrayOf(historyEntry), createdAt: text, updatedAt: text },
    {
      sessionId: text,
      research: object({ topic: text, planPath: text, startedAt: text }, { reportPath: text, from: text }),
      postMortem: object({ path: text, templateSha256: matches(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest'), outcome: oneOf('SUCCESS', 'FAILURE') }),
      registry: text,
      pins: object({ plans: recordOf(matches(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest')), registry: recordOf(text) }),
      expansion: recordOf(object({ plan: text, loops: arrayOf(arrayOf(text)) })),
      stepBaseline: object(
        { planPath: text, index: count, line: text, path: text, sha256: nullable(matches(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest')) },
        { expected: matches(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest'), diff: text },
      ),
    },
  ),
);

/** Same shape as ActivityEntrySchema in schema.ts. */
export const activityEntryValidator: Schema<ActivityEntry> = schemaOf<ActivityEntry>(
  object({
    log_id: text,
    session_id: text,
    timestamp: text,
    phase: text,
    task: object({ id: text, plan_step: nullable(count) }),
    action: object({ type: text, details: anyRecord }),
    outcome: object({ status: oneOf('SUCCESS', 'FAILURE', 'INFO'), message: anyString }),
  }, {
    actor: object({ via: oneOf('mcp', 'shell') }, { role: oneOf('agent', 'user'), tool_use_id: text }),
  }),
);
