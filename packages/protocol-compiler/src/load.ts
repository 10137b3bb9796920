/**
 * Reading a protocols directory: *.protocol.json sources (parsed by the store's guarded reader, so
 * errors carry file:line:col and `__proto__` keys are refused), their paired *.protocol.md prose,
 * the VERSION file and the project's protocol.schema.json.
 *
 * Pairing is explicit: `x.protocol.md` belongs to `x.protocol.json`, or a prose file declares its
 * protocol on its first line with `<!-- protocol: <protocol_id> -->`. A `*.protocol.md` that pairs
 * with nothing is an error rather than silently dropped or guessed.
 *
 * The original Jules layout is read too: prose `NN-name.md` belongs to the one
 * `NN-*.protocol.json` with the same numeric prefix, and an `NN-name.md` with no such partner (an
 * introduction) is prose of its own, compiled in file-name order. Two partners with one prefix
 * are an error (which one is meant is a guess), unless one has the prose file's exact base name.
 *
 * Every problem in the directory is collected (parse errors, schema violations, duplicate ids,
 * unpaired prose, a bad VERSION) and reported together, each with its file and place.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError, locate, parseJson, readDataFile, readJsonFileSync, readTextFileSync } from '@ratchet/store';
import { ProtocolError, problemsError, problemsOf, type ProtocolIssue, type ProtocolProblem } from './errors.js';
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
  /**
   * Source texts to use instead of the files on disk, by absolute path (a dry run previews edits
   * it has not written). Only existing *.protocol.json files can be overridden.
   */
  overrides?: ReadonlyMap<string, string> | undefined;
}

export async function loadProtocolSet(dir: string, options: LoadOptions = {}): Promise<ProtocolSet> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort(compareNames);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ProtocolError('not-found', dir, 'no such protocols directory');
    if (code === 'ENOTDIR') throw new ProtocolError('not-found', dir, 'not a directory (expected the protocols directory)');
    throw err;
  }
  // Without a usable schema nothing else can be checked: that one error stops the load.
  const validator = options.validator ?? (await loadProtocolValidator(names.includes(SCHEMA_FILE) ? join(dir, SCHEMA_FILE) : undefined));
  const problems: ProtocolProblem[] = [];
  let version: string | undefined;
  if (names.includes(VERSION_FILE)) {
    try {
      version = readVersionSync(join(dir, VERSION_FILE));
    } catch (err) {
      problems.push(...placedOrThrow(err));
    }
  }

  const sources: ProtocolSource[] = [];
  const byId = new Map<string, ProtocolSource>();
  const byBase = new Map<string, ProtocolSource>();
  const jsonNames = names.filter((n) => n.endsWith(JSON_SUFFIX) || YAML_SUFFIX.test(n));
  for (const name of jsonNames) {
    const file = join(dir, name);
    let source: Protocol;
    try {
      // A protocol written in YAML (`*.protocol.yaml`/`.yml`) reads like its JSON form; the parser loads only then.
      source = YAML_SUFFIX.test(name) ? await readYamlProtocol(file, validator) : readProtocolFileSync(file, validator, options.overrides?.get(file));
    } catch (err) {
      problems.push(...placedOrThrow(err));
      continue;
    }
    const entry: ProtocolSource = { file, name, protocol: source };
    const seen = byId.get(source.protocol_id);
    if (seen !== undefined) {
      const place = placeOfSync(file, '/protocol_id', options.overrides);
      problems.push({ code: 'duplicate-id', file, pointer: '/protocol_id', message: `protocol_id "${source.protocol_id}" is already used by ${seen.file}`, ...place });
      continue;
    }
    const ruleIds = new Set<string>();
    for (const [r, rule] of source.rules.entries()) {
      if (ruleIds.has(rule.rule_id)) {
        const pointer = `/rules/${r}/rule_id`;
        problems.push({ code: 'duplicate-rule-id', file, pointer, message: `rule_id "${rule.rule_id}" appears twice in this protocol`, ...placeOfSync(file, pointer, options.overrides) });
      }
      ruleIds.add(rule.rule_id);
    }
    byId.set(source.protocol_id, entry);
    byBase.set(baseOf(name), entry);
    sources.push(entry);
  }

  const standalone: { file: string; name: string; text: string }[] = [];
  for (const name of names) {
    const numbered = !name.endsWith(PROSE_SUFFIX) ? NUMBERED_PROSE.exec(name) : null;
    if (!name.endsWith(PROSE_SUFFIX) && numbered === null) continue;
    const file = join(dir, name);
    // `NN-name.md` (the original's layout) pairs by numeric prefix; `x.md` by the name `x.protocol.json`.
    const partner = numbered !== null ? numberedPartner(name, numbered[1]!, jsonNames) : undefined;
    if (partner?.kind === 'ambiguous') {
      problems.push({ code: 'unpaired-prose', file, message: `more than one protocol has the prefix ${numbered![1]}- (${partner.names.join(', ')}): rename it after its *.protocol.json or start it with <!-- protocol: <protocol_id> -->`, line: 1, column: 1 });
      continue;
    }
    let text: string;
    try {
      ({ text } = readTextFileSync(file));
    } catch (err) {
      problems.push(...placedOrThrow(err));
      continue;
    }
    const declared = DECLARED.exec(text);
    const base = partner === undefined ? name.slice(0, -PROSE_SUFFIX.length) : partner.kind === 'one' ? partner.base : undefined;
    const owner = declared !== null ? byId.get(declared[1]!) : base !== undefined ? byBase.get(base) : undefined;
    if (owner === undefined) {
      if (declared !== null) problems.push({ code: 'unpaired-prose', file, message: `declares protocol "${declared[1]}", which no *.protocol.json defines`, line: 1, column: 1 });
      // A numbered introduction with no JSON partner is prose of its own, as the original compiled it.
      else if (partner?.kind === 'none') standalone.push({ file, name, text: normaliseProse(text) });
      // A partner that failed to load is already reported; its prose is not "unpaired".
      else if (partner === undefined && !jsonNames.some((n) => baseOf(n) === base)) {
        problems.push({ code: 'unpaired-prose', file, message: 'pairs with no protocol: name it after its *.protocol.json or start it with <!-- protocol: <protocol_id> -->', line: 1, column: 1 });
      }
      continue;
    }
    if (owner.prose !== undefined) {
      problems.push({ code: 'unpaired-prose', file, message: `protocol "${owner.protocol.protocol_id}" already has prose in ${owner.prose.file}`, line: 1, column: 1 });
      continue;
    }
    owner.prose = { file, text: normaliseProse(declared !== null ? text.slice(declared[0].length) : text) };
  }
  if (problems.length > 0) throw problemsError(problems);
  return { dir, version, sources, ...(standalone.length > 0 ? { prose: standalone } : {}) };
}

const YAML_SUFFIX = /\.protocol\.ya?ml$/;

/** `x` for `x.protocol.json`, `x.protocol.yaml` and `x.protocol.yml`. */
function baseOf(name: string): string {
  return name.replace(/\.protocol\.(json|ya?ml)$/, '');
}

async function readYamlProtocol(file: string, validator: ProtocolValidator): Promise<Protocol> {
  const parsed = await readDataFile(file);
  return validated(file, parsed, validator);
}

/** `NN-name.md` (not `*.protocol.md`): the original's prose files, paired by their numeric prefix. */
const NUMBERED_PROSE = /^(\d+)-[^/\\]+\.md$/;

/** The `*.protocol.json` a numbered prose file belongs to: none, one (its base name), or ambiguous. */
function numberedPartner(name: string, prefix: string, jsonNames: readonly string[]): { kind: 'none' } | { kind: 'one'; base: string } | { kind: 'ambiguous'; names: string[] } {
  const same = jsonNames.filter((n) => n.startsWith(`${prefix}-`));
  const exact = same.find((n) => baseOf(n) === name.slice(0, -'.md'.length));
  if (exact !== undefined) return { kind: 'one', base: baseOf(exact) };
  if (same.length === 0) return { kind: 'none' };
  if (same.length === 1) return { kind: 'one', base: baseOf(same[0]!) };
  return { kind: 'ambiguous', names: same };
}

/**
 * Parses and validates one source file; errors carry file:line:col and the JSON pointer. `text`,
 * when given, is used instead of the file's content.
 */
export function readProtocolFile(file: string, validator: ProtocolValidator, text?: string): Promise<Protocol> {
  return Promise.resolve().then(() => readProtocolFileSync(file, validator, text));
}

// Synchronous reads: for a directory of many small files they cost a third of the CPU of
// promise-based ones (no thread-pool round trip per open/stat/read/close), and nothing else runs meanwhile.
function readProtocolFileSync(file: string, validator: ProtocolValidator, text?: string): Protocol {
  const parsed = text === undefined
    ? readJsonFileSync(file)
    : { value: parseJson(text, { path: file }), locate: (pointer: string) => locate(text, pointer) };
  return validated(file, parsed, validator);
}

function validated(file: string, parsed: { value: unknown; locate(pointer: string): { line: number; column: number } | undefined }, validator: ProtocolValidator): Protocol {
  const result = validator(parsed.value);
  if (!result.ok) {
    const issues: ProtocolIssue[] = result.issues.map((issue) => {
      const where = parsed.locate(issue.pointer);
      return where === undefined ? issue : { ...issue, line: where.line, column: where.column };
    });
    throw problemsError(issues.map((issue) => ({ code: 'schema-violation' as const, file, ...issue })));
  }
  return parsed.value as Protocol;
}

export function readVersion(file: string): Promise<string> {
  return Promise.resolve().then(() => readVersionSync(file));
}

function readVersionSync(file: string): string {
  const { text } = readTextFileSync(file);
  const version = text.replace(/^\uFEFF/, '').trim();
  if (!isSemver(version)) throw new ProtocolError('bad-version', file, `"${version.slice(0, 40)}" is not a semantic version (like 1.2.3)`, { line: 1, column: 1 });
  return version;
}

// Problems about a file are collected; anything else (EACCES on the directory, a bug) stops the load.
function placedOrThrow(err: unknown): ProtocolProblem[] {
  const problems = problemsOf(err);
  if (problems === undefined) throw err;
  return problems;
}

/** Line and column of `pointer` in `file` (or its override), for problems found after parsing. */
export function placeOf(file: string, pointer: string, overrides?: ReadonlyMap<string, string>): Promise<{ line?: number; column?: number }> {
  return Promise.resolve().then(() => placeOfSync(file, pointer, overrides));
}

function placeOfSync(file: string, pointer: string, overrides?: ReadonlyMap<string, string>): { line?: number; column?: number } {
  try {
    const text = overrides?.get(file) ?? readTextFileSync(file).text;
    const where = locate(text, pointer);
    return where === undefined ? {} : { line: where.line, column: where.column };
  } catch (err) {
    if (err instanceof NotFoundError) return {};
    throw err;
  }
}

// Plain code-unit order: locale-independent, so every machine compiles the same bytes.
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** LF line endings, no BOM, exactly one trailing newline: prose bytes must not depend on the editor. */
export function normaliseProse(text: string): string {
  return `${text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trim()}\n`;
}
