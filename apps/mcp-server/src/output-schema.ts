/**
 * Each tool's MCP outputSchema: what its structuredContent holds.
 *
 * Where the CLI publishes a JSON Schema of the command's --json output, the tool's schema is that
 * one, made self-contained for any client's validator: `$schema`, `$id`, titles and descriptions
 * dropped (they stay in the published file; tools/list is sent to the client on every session), and
 * a `$ref` to another package's schema (a session, a campaign task, a goal) relaxed to "an object":
 * a client cannot fetch it, and the document it names is checked by its own package when written.
 * Elsewhere the schema is the command's outline (result-outlines.ts): its top-level fields and their
 * JSON types.
 *
 * A refused call (isError) carries the command's refusal document, `ok: false` (the CLI's
 * error.v1 document, or a plan rejected for its findings), so every schema also admits that.
 */
import { createRequire } from 'node:module';
import { RESULT_OUTLINES, type JsonType } from './result-outlines.js';
import type { ToolSpec } from './tool-spec.js';

type Schema = Record<string, unknown>;

const REFUSAL: Schema = { type: 'object', properties: { ok: { const: false } }, required: ['ok'] };

export function outputSchemaOf(spec: ToolSpec): Schema {
  const success = spec.output !== undefined ? cliOutputSchema(spec.output) : outlineSchema(spec.name);
  return { type: 'object', anyOf: [success, REFUSAL] };
}

const require = createRequire(import.meta.url);

/** @ratchet/cli/schemas/output/<name>.schema.json, self-contained and without prose. */
export function cliOutputSchema(name: string): Schema {
  if (!/^[a-z-]+\.v[0-9]+$/.test(name)) throw new Error(`not an output schema name: ${name}`);
  return compact(require(`@ratchet/cli/schemas/output/${name}.schema.json`) as Schema, true) as Schema;
}

function compact(value: unknown, root = false): unknown {
  if (Array.isArray(value)) return value.map((v) => compact(v));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Schema;
  if (typeof object.$ref === 'string' && !object.$ref.startsWith('#')) return { type: 'object' };
  const out: Schema = {};
  for (const [key, v] of Object.entries(object)) {
    if (key === 'description' || key === 'title' || (root && (key === '$schema' || key === '$id'))) continue;
    // Under `properties` every key is a field name (one may be called "description" or "$schema").
    out[key] = key === 'properties' && v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v as Schema).map(([k, s]) => [k, compact(s)])) : compact(v);
  }
  return out;
}

/** A result's top-level fields with their types; `ok` is required, other fields may be absent. */
function outlineSchema(tool: string): Schema {
  const outline = RESULT_OUTLINES[tool];
  if (outline === undefined) throw new Error(`tool ${tool} has neither a CLI output schema nor a result outline`);
  const properties: Record<string, Schema> = {};
  for (const [field, type] of Object.entries(outline)) properties[field] = typeOf(type);
  return { type: 'object', properties, required: ['ok'] };
}

function typeOf(type: JsonType | readonly JsonType[]): Schema {
  return { type: typeof type === 'string' ? type : [...type] };
}
