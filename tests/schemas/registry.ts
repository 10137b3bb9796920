/**
 * Every JSON Schema Ratchet ships (packages/* /schemas, apps/* /schemas), loaded into ajv under its
 * `$id`, so a document can be checked against the schema its `$schema` names: a published URL, or
 * a path relative to the document (what `ratchet init` writes beside the protocols, what the
 * repository's own protocols use). Draft 2020-12 and draft-07 schemas each get their own ajv.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { repoRoot } from '../helpers.js';

export interface ShippedSchema {
  id: string;
  file: string;
  schema: Record<string, unknown>;
}

function schemaFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return schemaFiles(path);
    return name.endsWith('.schema.json') ? [path] : [];
  });
}

export function shippedSchemas(): ShippedSchema[] {
  const roots = ['packages', 'apps'].flatMap((top) => readdirSync(join(repoRoot, top)).map((name) => join(repoRoot, top, name, 'schemas')));
  return roots.flatMap(schemaFiles).map((file) => {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (typeof schema.$id !== 'string') throw new Error(`${file} has no $id`);
    return { id: schema.$id, file, schema };
  });
}

export class SchemaRegistry {
  readonly schemas = shippedSchemas();
  private readonly byId = new Map(this.schemas.map((s) => [s.id, s]));
  private readonly byFile = new Map(this.schemas.map((s) => [resolve(s.file), s]));
  private readonly draft2020 = new Ajv2020({ allErrors: true, strict: false });
  private readonly draft07 = new Ajv({ allErrors: true, strict: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    // Formats are checked, not ignored: a date-time the runtime accepts must be one the schema accepts.
    addFormats.default(this.draft2020);
    addFormats.default(this.draft07);
    for (const s of this.schemas) (this.isDraft07(s.schema) ? this.draft07 : this.draft2020).addSchema(s.schema);
  }

  private isDraft07(schema: Record<string, unknown>): boolean {
    return typeof schema.$schema === 'string' && schema.$schema.includes('draft-07');
  }

  /** The shipped schema a `$schema` value names, seen from `documentPath`; undefined when it names none. */
  resolve(ref: string, documentPath: string): ShippedSchema | undefined {
    if (/^https?:\/\//u.test(ref)) return this.byId.get(ref);
    const local = resolve(dirname(documentPath), ref);
    const shipped = this.byFile.get(local);
    if (shipped !== undefined) return shipped;
    // A copy `ratchet init` wrote beside the project's files: the same schema under the same $id.
    try {
      const copy = JSON.parse(readFileSync(local, 'utf8')) as { $id?: unknown };
      return typeof copy.$id === 'string' ? this.byId.get(copy.$id) : undefined;
    } catch {
      return undefined;
    }
  }

  validator(id: string): ValidateFunction {
    let v = this.compiled.get(id);
    if (v === undefined) {
      const s = this.byId.get(id);
      if (s === undefined) throw new Error(`no shipped schema has $id ${id}`);
      v = (this.isDraft07(s.schema) ? this.draft07 : this.draft2020).getSchema(id);
      if (v === undefined) throw new Error(`ajv did not compile ${id}`);
      this.compiled.set(id, v);
    }
    return v;
  }

  /** ajv's errors as `pointer message` lines; empty when valid. */
  check(id: string, value: unknown): string[] {
    const v = this.validator(id);
    if (v(value)) return [];
    return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params !== undefined ? ` ${JSON.stringify(e.params)}` : ''}`);
  }
}
