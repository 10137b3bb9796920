/**
 * Validation with the caller's schema. The store never imports zod (importing it costs ~100 ms of CLI
 * start-up): it only calls `schema.safeParse`, typed structurally so any zod 4 schema fits.
 */
import { ValidationError, type ValidationIssue } from './errors.js';
import { locate } from './json-parse.js';
import { toJsonPointer } from './json-pointer.js';

/** One problem as zod reports it (the fields the store reads). */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
}

export type SafeParseResult<T> = { success: true; data: T } | { success: false; error: { readonly issues: readonly SchemaIssue[] } };

/** What the store needs from a schema: zod's `safeParse`. Output must be JSON data (no transforms to Date etc.). */
export interface Schema<T> {
  safeParse(input: unknown): SafeParseResult<T>;
}

/** Issues beyond this many are dropped from a ValidationError (the count of the rest is not). */
export const MAX_ISSUES = 100;

export interface ValidateContext {
  path: string;
  source: 'file' | 'update';
  /** The file text the value came from, to place issues at a line and column. */
  text?: string | undefined;
  /** Line of `text`'s first line in its file (JSONL). */
  firstLine?: number;
  /** Prefix for issue pointers (a JSONL record's issues are reported per line, not per file). */
  context?: string;
}

export function validate<T>(schema: Schema<T>, value: unknown, ctx: ValidateContext): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(ctx.path, toValidationIssues(result.error.issues, ctx.text, ctx.firstLine ?? 1), ctx.source, ctx.context ?? '');
}

/** zod issues → pointer-addressed issues, located in `text` when given. An unknown-keys issue becomes one issue per key. */
export function toValidationIssues(issues: readonly SchemaIssue[], text?: string, firstLine = 1): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const keys = (issue as { keys?: unknown }).keys;
    if (issue.code === 'unrecognized_keys' && Array.isArray(keys) && keys.length > 0) {
      for (const key of keys) out.push(place({ pointer: toJsonPointer([...issue.path, String(key)]), message: `unknown property "${String(key)}"`, code: issue.code }, text, firstLine));
    } else {
      out.push(place({ pointer: toJsonPointer(issue.path), message: issue.message, code: issue.code }, text, firstLine));
    }
    if (out.length >= MAX_ISSUES) break;
  }
  return out;
}

function place(issue: ValidationIssue, text: string | undefined, firstLine: number): ValidationIssue {
  if (text === undefined) return issue;
  const at = locate(text, issue.pointer);
  if (at === undefined) return issue;
  // An unknown property is best shown at its name, anything else at its value.
  const where = issue.code === 'unrecognized_keys' && at.exact && at.key !== undefined ? at.key : at;
  return { ...issue, line: where.line + firstLine - 1, column: where.column };
}
