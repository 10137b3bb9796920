/** Trace records and the trace config checked with their precompiled validators (no zod at run time). */
import { validateTraceConfig, validateTraceRecord } from '../generated/trace-validators.js';
import { issuesOf, type StructuralIssue, type ValidateFunction } from '../validate.js';

const recordValidator = validateTraceRecord as unknown as ValidateFunction;
const configValidator = validateTraceConfig as unknown as ValidateFunction;

/**
 * A record's problems. A record is one of five shapes (by `type`); ajv reports each shape's
 * complaints, so when `type` names a shape only the problems that shape's branch has are kept.
 */
export function traceRecordIssues(value: unknown): StructuralIssue[] {
  const issues = issuesOf(recordValidator, value);
  if (issues.length === 0) return [];
  const type = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
  const known = ['turn_start', 'span_start', 'span_end', 'event', 'turn_end'];
  if (typeof type !== 'string' || !known.includes(type)) return [{ pointer: '/type', message: `"type" must be one of ${known.join(', ')}`, code: 'enum' }];
  const specific = issues.filter((i) => i.code !== 'oneOf' && i.code !== 'const' && !(i.code === 'unrecognized_keys' && i.pointer.startsWith('/type')));
  return specific.length > 0 ? specific : issues;
}

export const traceConfigIssues = (value: unknown): StructuralIssue[] => issuesOf(configValidator, value);
