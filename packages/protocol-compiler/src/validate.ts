/**
 * Validation of protocol sources with ajv against a JSON Schema that is user data: the project's
 * protocols/protocol.schema.json when it exists (it may extend the default), else the default this
 * package ships. Draft-07 schemas use Ajv; 2019-09/2020-12 ones use Ajv2020.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readJsonFile } from '@ratchet/store';
import { ProtocolError, type ProtocolIssue } from './errors.js';
import { DEFAULT_PROTOCOL_SCHEMA } from './generated/default-schema.js';

export type ProtocolValidator = (value: unknown) => { ok: true } | { ok: false; issues: ProtocolIssue[] };

/** The default schema shipped in schemas/protocol.schema.json (generated from src/schema.ts, embedded as a module). */
export function defaultProtocolSchema(): Record<string, unknown> {
  return structuredClone(DEFAULT_PROTOCOL_SCHEMA);
}

/** Compiles a schema object; `path` names it in errors. */
export function compileProtocolSchema(schema: unknown, path = '<protocol schema>'): ProtocolValidator {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new ProtocolError('bad-schema', path, 'the protocol schema must be a JSON object');
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  const draft = typeof declared === 'string' ? declared : '';
  const ajv = /2019-09|2020-12/.test(draft) ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false });
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new ProtocolError('bad-schema', path, `not a usable JSON Schema: ${(err as Error).message}`);
  }
  return (value) => {
    if (validate(value)) return { ok: true };
    return { ok: false, issues: (validate.errors ?? []).map(toIssue) };
  };
}

/** Loads `schemaPath` if it exists, else the default schema. */
// Compiling a schema costs ~50-100 ms; a long-lived process (tests, benchmarks, servers) reuses it.
const compiled = new Map<string, ProtocolValidator>();

export async function loadProtocolValidator(schemaPath: string | undefined): Promise<ProtocolValidator> {
  if (schemaPath === undefined) return cached('default', () => compileProtocolSchema(defaultProtocolSchema(), 'default protocol schema'));
  const file = await readJsonFile(schemaPath);
  return cached(file.text, () => compileProtocolSchema(file.value, schemaPath));
}

function cached(key: string, make: () => ProtocolValidator): ProtocolValidator {
  let validator = compiled.get(key);
  if (validator === undefined) {
    validator = make();
    if (compiled.size > 16) compiled.clear();
    compiled.set(key, validator);
  }
  return validator;
}

function toIssue(error: ErrorObject): ProtocolIssue {
  let pointer = error.instancePath;
  let message = error.message ?? 'is invalid';
  // Point at the offending key itself, and name it: "must NOT have additional properties" alone is useless.
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    pointer = `${pointer}/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    message = `unknown property "${extra}" (${message})`;
  } else if (error.keyword === 'required') {
    message = `${message}`;
  }
  return { pointer, message };
}
