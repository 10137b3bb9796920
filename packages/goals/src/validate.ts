/**
 * Structural validation with the precompiled ajv validators (src/generated/, built from the zod
 * schemas by scripts/generate.ts), turned into pointer-addressed issues a person can act on.
 */
import { validateAmendment, validateCommit, validateProposal, validateRegistry, validateState } from './generated/validators.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

export interface StructuralIssue {
  pointer: string;
  message: string;
  code: string;
}

const registryValidator = validateRegistry as unknown as ValidateFunction;
const stateValidator = validateState as unknown as ValidateFunction;
const commitValidator = validateCommit as unknown as ValidateFunction;
const proposalValidator = validateProposal as unknown as ValidateFunction;
const amendmentValidator = validateAmendment as unknown as ValidateFunction;

export function issuesOf(fn: ValidateFunction, value: unknown): StructuralIssue[] {
  if (fn(value)) return [];
  const out: StructuralIssue[] = [];
  const seen = new Set<string>();
  for (const e of fn.errors ?? []) {
    let pointer = e.instancePath;
    let message = e.message ?? e.keyword;
    let code = e.keyword;
    if (e.keyword === 'additionalProperties') {
      pointer = `${pointer}/${escape(String(e.params.additionalProperty))}`;
      message = `unknown property "${String(e.params.additionalProperty)}"`;
      code = 'unrecognized_keys';
    } else if (e.keyword === 'required') {
      message = `missing required property "${String(e.params.missingProperty)}"`;
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'anyOf') {
      message = 'matches none of the allowed forms (see the other problems at this place)';
    } else if (e.keyword === 'pattern' || e.keyword === 'propertyNames') {
      const duration = e.keyword === 'pattern' && String(e.params.pattern).startsWith('^P');
      message =
        e.keyword === 'propertyNames'
          ? `property name "${String(e.params.propertyName)}" is not a valid name`
          : duration
            ? 'must be an ISO 8601 duration such as PT24H, P1D or PT30M'
            : 'must be a name: a letter or digit, then letters, digits, "_", ".", ":" or "-" (at most 128 characters)';
      if (e.keyword === 'propertyNames') pointer = `${pointer}/${escape(String(e.params.propertyName))}`;
    }
    // propertyNames reports twice (the pattern inside and the keyword itself): keep one.
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, message, code });
  }
  // An anyOf (an id or an object) reports each alternative; a wrong-type complaint from the
  // alternative the value plainly is not adds nothing when another alternative explains more.
  const anyOf = new Set(out.filter((i) => i.code === 'anyOf').map((i) => i.pointer));
  const explained = (p: string): boolean => out.some((o) => o.code !== 'anyOf' && o.code !== 'type' && (o.pointer === p || o.pointer.startsWith(`${p}/`)));
  return out.filter(
    (i) =>
      !(i.code === 'pattern' && out.some((o) => o.code === 'propertyNames' && o.pointer === i.pointer)) &&
      !(anyOf.has(i.pointer) && (i.code === 'type' || i.code === 'anyOf') && explained(i.pointer)),
  );
}

const escape = (s: string): string => s.replaceAll('~', '~0').replaceAll('/', '~1');

export const registryIssues = (value: unknown): StructuralIssue[] => issuesOf(registryValidator, value);
export const stateIssues = (value: unknown): StructuralIssue[] => issuesOf(stateValidator, value);
export const commitIssues = (value: unknown): StructuralIssue[] => issuesOf(commitValidator, value);
export const proposalIssues = (value: unknown): StructuralIssue[] => issuesOf(proposalValidator, value);
export const amendmentIssues = (value: unknown): StructuralIssue[] => issuesOf(amendmentValidator, value);
