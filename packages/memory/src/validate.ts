/**
 * The memory.json validator used at run time: hand-written so the CLI never loads zod (~100 ms).
 * It implements the store's `Schema` interface (`safeParse`) and accepts exactly what the zod
 * schema in schema.ts accepts (test/schema.test.ts checks both against the same inputs), plus one
 * rule zod's JSON Schema cannot express: names are unique across failures and patterns.
 */
import type { SafeParseResult, Schema, SchemaIssue } from '@ratchet/store';
import { NAME_PATTERN } from './gates.js';
import { EDGE_TYPES } from './graph.js';
import type { MemoryData } from './types.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const EDGE_SET = new Set<string>(EDGE_TYPES);

const COMMON = ['name', 'trigger', 'source', 'access_count', 'last_accessed', 'related', 'related_typed', 'times_helped', 'times_failed', 'created_at', 'tags'];
const FAILURE_KEYS = new Set([...COMMON, 'fix', 'match', 'cost']);
const PATTERN_KEYS = new Set([...COMMON, 'insight', 'saved']);

type Path = (string | number)[];

class Checker {
  readonly issues: SchemaIssue[] = [];

  issue(path: Path, message: string, code = 'custom'): void {
    if (this.issues.length < 100) this.issues.push({ path, message, code });
  }

  isObject(v: unknown, path: Path): v is Record<string, unknown> {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return true;
    this.issue(path, `expected an object, found ${describe(v)}`, 'invalid_type');
    return false;
  }

  string(v: unknown, path: Path): void {
    if (typeof v !== 'string') this.issue(path, `expected a string, found ${describe(v)}`, 'invalid_type');
  }

  nonNegative(v: unknown, path: Path, integer: boolean): void {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.issue(path, `expected a number, found ${describe(v)}`, 'invalid_type');
    else if (integer && !Number.isSafeInteger(v)) this.issue(path, 'expected an integer', 'invalid_type');
    else if (v < 0) this.issue(path, 'must be >= 0', 'too_small');
  }

  strings(v: unknown, path: Path): void {
    if (!Array.isArray(v)) return this.issue(path, `expected an array of strings, found ${describe(v)}`, 'invalid_type');
    v.forEach((s, i) => this.string(s, [...path, i]));
  }

  date(v: unknown, path: Path): void {
    if (typeof v !== 'string' || !ISO.test(v) || !Number.isFinite(Date.parse(v))) this.issue(path, `expected an ISO 8601 date-time, found ${describe(v)}`, 'invalid_format');
  }

  unknownKeys(obj: Record<string, unknown>, allowed: Set<string>, path: Path): void {
    const keys = Object.keys(obj).filter((k) => !allowed.has(k));
    if (keys.length > 0) this.issues.push({ path, message: `unknown keys ${keys.join(', ')}`, code: 'unrecognized_keys', keys } as SchemaIssue);
  }

  entry(v: unknown, path: Path, kind: 'failure' | 'pattern'): void {
    if (!this.isObject(v, path)) return;
    this.unknownKeys(v, kind === 'failure' ? FAILURE_KEYS : PATTERN_KEYS, path);
    if (typeof v.name !== 'string' || !NAME_PATTERN.test(v.name)) this.issue([...path, 'name'], `expected a name matching ${NAME_PATTERN.source}`, 'invalid_format');
    this.string(v.trigger, [...path, 'trigger']);
    if (kind === 'failure') {
      this.string(v.fix, [...path, 'fix']);
      if (v.match !== null) this.string(v.match, [...path, 'match']);
      this.nonNegative(v.cost, [...path, 'cost'], false);
    } else {
      this.string(v.insight, [...path, 'insight']);
      this.nonNegative(v.saved, [...path, 'saved'], false);
    }
    this.strings(v.source, [...path, 'source']);
    this.nonNegative(v.access_count, [...path, 'access_count'], true);
    if (v.last_accessed !== null) this.date(v.last_accessed, [...path, 'last_accessed']);
    this.strings(v.related, [...path, 'related']);
    if (this.isObject(v.related_typed, [...path, 'related_typed'])) {
      for (const [type, list] of Object.entries(v.related_typed)) {
        if (!EDGE_SET.has(type)) this.issue([...path, 'related_typed', type], `unknown relation type; one of ${EDGE_TYPES.join(', ')}`, 'invalid_key');
        else this.strings(list, [...path, 'related_typed', type]);
      }
    }
    this.nonNegative(v.times_helped, [...path, 'times_helped'], true);
    this.nonNegative(v.times_failed, [...path, 'times_failed'], true);
    this.date(v.created_at, [...path, 'created_at']);
    if (v.tags !== undefined) this.strings(v.tags, [...path, 'tags']);
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v === undefined) return 'nothing';
  return typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v) : `a ${typeof v}`;
}

export function checkMemoryData(input: unknown): SchemaIssue[] {
  const c = new Checker();
  if (!c.isObject(input, [])) return c.issues;
  c.unknownKeys(input, new Set(['failures', 'patterns', 'observed']), []);
  if (input.observed !== undefined) c.strings(input.observed, ['observed']);
  const seen = new Map<string, string>();
  for (const kind of ['failures', 'patterns'] as const) {
    const list = input[kind];
    if (!Array.isArray(list)) {
      c.issue([kind], `expected an array, found ${describe(list)}`, 'invalid_type');
      continue;
    }
    list.forEach((entry, i) => {
      c.entry(entry, [kind, i], kind === 'failures' ? 'failure' : 'pattern');
      const name = (entry as { name?: unknown } | null)?.name;
      if (typeof name === 'string') {
        const first = seen.get(name);
        if (first !== undefined) c.issue([kind, i, 'name'], `duplicate name ${JSON.stringify(name)} (first at ${first})`, 'custom');
        else seen.set(name, `/${kind}/${i}`);
      }
    });
  }
  return c.issues;
}

/** memory.json's runtime schema: the store calls safeParse on every read and before every write. */
export const memoryDataSchema: Schema<MemoryData> = {
  safeParse(input: unknown): SafeParseResult<MemoryData> {
    const issues = checkMemoryData(input);
    return issues.length === 0 ? { success: true, data: input as MemoryData } : { success: false, error: { issues } };
  },
};
