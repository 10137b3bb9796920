/**
 * Reading a protocols directory: *.protocol.json sources (parsed by the store's guarded reader, so
 * errors carry file:line:col and `__proto__` keys are refused), their paired *.protocol.md prose,
 * the VERSION file and the project's protocol.schema.json.
 *
 * Pairing is explicit: `x.protocol.md` belongs to `x.protocol.json`, or a prose file declares its
 * protocol on its first line with `<!-- protocol: <protocol_id> -->`. A prose file that pairs with
 * nothing is an error rather than silently dropped or guessed (the original paired by filename
 * prefix and duplicated headings).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, locate, readJsonFile, readTextFile } from '@ratchet/store';
import { ProtocolError, type ProtocolIssue } from './errors.js';
import { isSemver } from './semver.js';
import type { Protocol, ProtocolSet, ProtocolSource } from './types.js';
import { loadProtocolValidator, type ProtocolValidator } from './validate.js';

export const SCHEMA_FILE = 'protocol.schema.json';
export const VERSION_FILE = 'VERSION';
const JSON_SUFFIX = '.protocol.json';
const PROSE_SUFFIX = '.protocol.md';
const DECLARED = /^\uFEFF?<!--\s*protocol:\s*([a-z0-9-]+)\s*-->[ \t]*\r?\n?/;

export interface LoadOptions {
  /** Overrides `<dir>/protocol.schema.json` (and the default schema). */
  validator?: ProtocolValidator;
}

export async function loadProtocolSet(dir: string, options: LoadOptions = {}): Promise<ProtocolSet> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort(compareNames);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ProtocolError('not-found', dir, 'no such protocols directory');
    throw err;
  }
  const validator = options.validator ?? (await loadProtocolValidator(names.includes(SCHEMA_FILE) ? join(dir, SCHEMA_FILE) : undefined));
  const version = names.includes(VERSION_FILE) ? await readVersion(join(dir, VERSION_FILE)) : undefined;

  const sources: ProtocolSource[] = [];
  const byId = new Map<string, ProtocolSource>();
  const byBase = new Map<string, ProtocolSource>();
  const jsonNames = names.filter((n) => n.endsWith(JSON_SUFFIX));
  // Read in parallel batches (I/O dominates a large set); errors are still reported in name order.
  const parsed = await inBatches(jsonNames, 64, (name) => readProtocolFile(join(dir, name), validator).then(
    (protocol) => ({ ok: true as const, protocol }),
    (error: unknown) => ({ ok: false as const, error }),
  ));
  for (const [i, name] of jsonNames.entries()) {
    const file = join(dir, name);
    const read = parsed[i]!;
    if (!read.ok) throw read.error;
    const source = read.protocol;
    const entry: ProtocolSource = { file, name, protocol: source };
    const seen = byId.get(source.protocol_id);
    if (seen !== undefined) {
      const place = await placeOf(file, '/protocol_id');
      throw new ProtocolError('duplicate-id', file, `protocol_id "${source.protocol_id}" is already used by ${seen.file}`, { ...place, pointer: '/protocol_id' });
    }
    byId.set(source.protocol_id, entry);
    byBase.set(name.slice(0, -JSON_SUFFIX.length), entry);
    sources.push(entry);
  }

  for (const name of names) {
    if (!name.endsWith(PROSE_SUFFIX)) continue;
    const file = join(dir, name);
    const { text } = await readTextFile(file);
    const declared = DECLARED.exec(text);
    const owner = declared !== null ? byId.get(declared[1]!) : byBase.get(name.slice(0, -PROSE_SUFFIX.length));
    if (owner === undefined) {
      const why = declared !== null
        ? `declares protocol "${declared[1]}", which no *.protocol.json defines`
        : `pairs with no protocol: name it after its *.protocol.json or start it with <!-- protocol: <protocol_id> -->`;
      throw new ProtocolError('unpaired-prose', file, why, { line: 1, column: 1 });
    }
    if (owner.prose !== undefined) {
      throw new ProtocolError('unpaired-prose', file, `protocol "${owner.protocol.protocol_id}" already has prose in ${owner.prose.file}`, { line: 1, column: 1 });
    }
    owner.prose = { file, text: normaliseProse(declared !== null ? text.slice(declared[0].length) : text) };
  }
  return { dir, version, sources };
}

/** Parses and validates one source file; errors carry file:line:col and the JSON pointer. */
export async function readProtocolFile(file: string, validator: ProtocolValidator): Promise<Protocol> {
  const parsed = await readJsonFile(file);
  const result = validator(parsed.value);
  if (!result.ok) {
    const issues: ProtocolIssue[] = result.issues.map((issue) => {
      const where = parsed.locate(issue.pointer);
      return where === undefined ? issue : { ...issue, line: where.line, column: where.column };
    });
    const first = issues[0]!;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    throw new ProtocolError('schema-violation', file, `${first.pointer === '' ? '(document root)' : first.pointer}: ${first.message}${more}`, {
      line: first.line,
      column: first.column,
      pointer: first.pointer,
      issues,
    });
  }
  return parsed.value as Protocol;
}

export async function readVersion(file: string): Promise<string> {
  const { text } = await readTextFile(file);
  const version = text.replace(/^\uFEFF/, '').trim();
  if (!isSemver(version)) throw new ProtocolError('bad-version', file, `"${version.slice(0, 40)}" is not a semantic version (like 1.2.3)`, { line: 1, column: 1 });
  return version;
}

async function placeOf(file: string, pointer: string): Promise<{ line?: number; column?: number }> {
  try {
    const { text } = await readTextFile(file);
    const where = locate(text, pointer);
    return where === undefined ? {} : { line: where.line, column: where.column };
  } catch (err) {
    if (err instanceof NotFoundError) return {};
    throw err;
  }
}

async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

// Plain code-unit order: locale-independent, so every machine compiles the same bytes.
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** LF line endings, no BOM, exactly one trailing newline: prose bytes must not depend on the editor. */
export function normaliseProse(text: string): string {
  return `${text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trim()}\n`;
}
