/**
 * Structural validation with the precompiled ajv validators (src/generated/, built from the zod
 * schema). ajv's raw errors are turned into `schema` diagnostics a person can act on: one message
 * per problem, pointing at the offending member rather than its parent where possible.
 */
import { validateListDefinition, validateMapDefinition } from './generated/validate-definition.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { pointer, resolvePointer } from './pointer.js';

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

interface ValidateFunction {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

const validators = {
  map: validateMapDefinition as unknown as ValidateFunction,
  list: validateListDefinition as unknown as ValidateFunction,
};

export type DocumentStyle = 'map' | 'list';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Which shape the author meant: a `transitions` array is list style, an object map style; without
 * a usable `transitions`, the list-only property names decide. Errors are then reported against
 * that shape alone, because a document is valid under the union exactly when it is valid under
 * the shape its `transitions` has.
 */
export function detectStyle(doc: unknown): DocumentStyle {
  if (!isPlainObject(doc)) return 'map';
  const transitions = Object.hasOwn(doc, 'transitions') ? doc.transitions : undefined;
  if (Array.isArray(transitions)) return 'list';
  if (isPlainObject(transitions)) return 'map';
  return Object.hasOwn(doc, 'initial_state') || Object.hasOwn(doc, 'final_states') ? 'list' : 'map';
}

/** The other shape's name for a property, for a hint when an author mixes the two. */
const COUNTERPART: Record<DocumentStyle, ReadonlyMap<string, string>> = {
  list: new Map([
    ['start_state', 'initial_state'],
    ['accept_states', 'final_states'],
  ]),
  map: new Map([
    ['initial_state', 'start_state'],
    ['final_states', 'accept_states'],
  ]),
};

export function validateStructure(doc: unknown, style: DocumentStyle = detectStyle(doc)): Diagnostic[] {
  const validate = validators[style];
  if (validate(doc)) return [];
  return toDiagnostics(validate.errors ?? [], doc, style);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function describeValue(doc: unknown, ptr: string): string {
  const at = resolvePointer(doc, ptr);
  return at.found ? typeName(at.value) : 'nothing';
}

function toDiagnostics(errors: readonly AjvError[], doc: unknown, style: DocumentStyle): Diagnostic[] {
  const dropped = new Set<AjvError>();
  const replacements: Diagnostic[] = [];
  // An anyOf (a state is a string or an object) fails with one error per branch. If some branch
  // got past its type check, its errors are the useful ones; otherwise say which types would do.
  for (const any of errors) {
    if (any.keyword !== 'anyOf') continue;
    const branch = errors.filter(
      (e) => e !== any && e.schemaPath.startsWith(`${any.schemaPath}/`) && (e.instancePath === any.instancePath || e.instancePath.startsWith(`${any.instancePath}/`)),
    );
    const typeFailures = branch.filter((e) => e.keyword === 'type' && e.instancePath === any.instancePath);
    const substantive = branch.filter((e) => !typeFailures.includes(e));
    dropped.add(any);
    for (const e of typeFailures) dropped.add(e);
    if (substantive.length === 0) {
      const types = typeFailures.map((e) => String(e.params.type));
      replacements.push(diagnostic('schema', any.instancePath, `expected ${types.join(' or ')}, got ${describeValue(doc, any.instancePath)}`));
    }
  }
  const out: Diagnostic[] = [...replacements];
  const seen = new Set<string>();
  for (const e of errors) {
    if (dropped.has(e)) continue;
    const d = toDiagnostic(e, doc, style);
    const key = `${d.pointer}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

function toDiagnostic(e: AjvError, doc: unknown, style: DocumentStyle): Diagnostic {
  const at = e.instancePath;
  switch (e.keyword) {
    case 'type':
      return diagnostic('schema', at, `expected ${String(e.params.type)}, got ${describeValue(doc, at)}`);
    case 'required': {
      const missing = String(e.params.missingProperty);
      return diagnostic('schema', at, `missing required property ${JSON.stringify(missing)}${at === '' ? ` (${style}-style definition)` : ''}`);
    }
    case 'additionalProperties': {
      const extra = String(e.params.additionalProperty);
      const hint = at === '' ? COUNTERPART[style].get(extra) : undefined;
      const suffix = hint ? ` (${style}-style definitions use ${JSON.stringify(hint)})` : '';
      return diagnostic('schema', pointer(at, extra), `unknown property ${JSON.stringify(extra)}${suffix}`);
    }
    case 'minLength':
      return diagnostic('schema', at, 'must not be empty');
    case 'const':
      return diagnostic('schema', at, `must be ${JSON.stringify(e.params.allowedValue)}`);
    default:
      return diagnostic('schema', at, e.message ?? `fails ${e.keyword}`);
  }
}
