/**
 * Reading a protocols directory: *.protocol.json sources (parsed by the store's guarded reader, so
 * errors carry file:line:col and `__proto__` keys are refused), their paired *.protocol.md prose,
 * the VERSION file and the project's protocol.schema.json.
 *
 * Pairing is explicit: `x.protocol.md` belongs to `x.protocol.json`, or a prose file declares its
 * protocol on its first line with `<!-- protocol: <protocol_id> -->`. A `*.protocol.md` that pairs
 * with nothing is an error rather than silently dropped or guessed.
 *
 * The original Jules layouts are read too: numbered prose (`NN-name.md`, `NN_name.md`,
 * `NN_name.protocol.md`) belongs to its exact namesake, else to the one `NN-*` / `NN_*` protocol of
 * the same numeric prefix that has no prose of its own (how the original compiler paired them); a
 * numbered prose file with no such partner (an introduction) is prose of its own, compiled in
 * file-name order. Two candidates for one prefix are an error (which one is meant is a guess).
 * `_z_child_summary_*` files, which the original's hierarchical build generated into a folder and
 * deleted after it (a committed one is a leftover), are skipped and listed in `skipped`.
 *
 * The schema is the nearest `protocol.schema.json` from the directory up to `schemaRoot` (a
 * sub-folder such as `protocols/security/` uses its parent's), else the default this package ships.
 *
 * Every problem in the directory is collected (parse errors, schema violations, duplicate ids,
 * unpaired prose, a bad VERSION) and reported together, each with its file and place.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
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
  /** Overrides the project's protocol.schema.json (and the default schema). */
  validator?: ProtocolValidator;
  /**
   * The highest directory searched for `protocol.schema.json`, from the protocols directory up (the
   * project root). Default: the protocols directory alone.
   */
  schemaRoot?: string | undefined;
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
  const validator = options.validator ?? (await loadProtocolValidator(findSchema(dir, options.schemaRoot, names)));
  return loadWith(dir, names, validator, options);
}

/** The validator sources in `dir` are checked with: the nearest schema up to `schemaRoot`, else the default. */
export async function protocolValidatorFor(dir: string, schemaRoot?: string): Promise<ProtocolValidator> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return loadProtocolValidator(findSchema(dir, schemaRoot, names));
}

async function loadWith(dir: string, names: readonly string[], validator: ProtocolValidator, options: LoadOptions): Promise<ProtocolSet> {
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
  const skipped: { file: string; reason: string }[] = [];
  for (const name of names) {
    if (name.startsWith(CHILD_SUMMARY)) skipped.push({ file: join(dir, name), reason: "a child summary the original's hierarchical build generated (and deleted after it): not a source" });
    else if (name.endsWith(AUTODOC_SUFFIX)) skipped.push({ file: join(dir, name), reason: "the original's placeholder for its generated SYSTEM_DOCUMENTATION.md: Ratchet embeds the usage of the `ratchet` tools a protocol names instead" });
  }
  const jsonNames = names.filter((n) => (n.endsWith(JSON_SUFFIX) || YAML_SUFFIX.test(n)) && !n.startsWith(CHILD_SUMMARY));
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
    // A project's schema may leave `rules` out: no rules, then.
    for (const [r, rule] of (source.rules ?? []).entries()) {
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
  const proseNames = names.filter((n) => !n.startsWith(CHILD_SUMMARY) && !n.endsWith(AUTODOC_SUFFIX) && (n.endsWith(PROSE_SUFFIX) || NUMBERED_PROSE.test(n)));
  // Protocols whose prose is named after them: a numbered neighbour never takes their place.
  const jsonBases = new Set(jsonNames.map(baseOf));
  const named = new Set(proseNames.map(proseBase).filter((b) => jsonBases.has(b)));
  // Protocol sources by numeric prefix (`NN-` / `NN_`), for numbered prose.
  const byPrefix = new Map<string, string[]>();
  for (const name of jsonNames) {
    const prefix = /^(\d+)[-_]/.exec(name)?.[1];
    if (prefix !== undefined) byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
  }
  for (const name of proseNames) {
    const file = join(dir, name);
    const numbered = NUMBERED_PROSE.exec(name);
    // `x.protocol.md` / `NN_x.md` pair with `x.protocol.json`; numbered prose otherwise by its numeric prefix.
    const exact = named.has(proseBase(name)) ? proseBase(name) : undefined;
    const partner = exact !== undefined ? { kind: 'one' as const, base: exact } : numbered !== null ? numberedPartner(byPrefix.get(numbered[1]!) ?? [], named) : undefined;
    if (partner?.kind === 'ambiguous') {
      problems.push({ code: 'unpaired-prose', file, message: `more than one protocol has the prefix ${numbered![1]}${numbered![2]} (${partner.names.join(', ')}): rename it after its *.protocol.json or start it with <!-- protocol: <protocol_id> -->`, line: 1, column: 1 });
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
    const base = partner?.kind === 'one' ? partner.base : undefined;
    const owner = declared !== null ? byId.get(declared[1]!) : base !== undefined ? byBase.get(base) : undefined;
    if (owner === undefined) {
      if (declared !== null) problems.push({ code: 'unpaired-prose', file, message: `declares protocol "${declared[1]}", which no *.protocol.json defines`, line: 1, column: 1 });
      // A numbered introduction with no JSON partner is prose of its own, as the original compiled it.
      else if (partner?.kind === 'none') standalone.push({ file, name, text: normaliseProse(text) });
      // A partner that failed to load is already reported; its prose is not "unpaired".
      else if (base === undefined) {
        problems.push({
          code: 'unpaired-prose',
          file,
          message: 'pairs with no protocol: name it after its *.protocol.json, start it with <!-- protocol: <protocol_id> -->, or number it (NN_name.protocol.md) to compile it as prose of its own',
          line: 1,
          column: 1,
        });
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
  return { dir, version, sources, ...(standalone.length > 0 ? { prose: standalone } : {}), ...(skipped.length > 0 ? { skipped } : {}) };
}

/** Generated by the original's hierarchical compiler (`hierarchical_compiler.py`), never a source. */
const CHILD_SUMMARY = '_z_child_summary_';
/** The original compiler replaced such a file with its generated system documentation. */
const AUTODOC_SUFFIX = '.autodoc.md';

/**
 * The nearest `protocol.schema.json` from `dir` up to `root` (inclusive; only `dir` without one);
 * undefined: use the default schema. `names` are `dir`'s entries, already read.
 */
function findSchema(dir: string, root: string | undefined, names: readonly string[]): string | undefined {
  if (names.includes(SCHEMA_FILE)) return join(dir, SCHEMA_FILE);
  if (root === undefined) return undefined;
  const top = resolve(root);
  let at = resolve(dir);
  // Only directories inside the root are searched: a schema above the project is not the project's.
  if (at !== top && !at.startsWith(`${top}${sep}`)) return undefined;
  while (at !== top) {
    at = dirname(at);
    if (existsSync(join(at, SCHEMA_FILE))) return join(at, SCHEMA_FILE);
  }
  return undefined;
}

/** The base a prose file pairs by name: `x` for `x.protocol.md` and for `NN_x.md`. */
function proseBase(name: string): string {
  return name.endsWith(PROSE_SUFFIX) ? name.slice(0, -PROSE_SUFFIX.length) : name.replace(/\.md$/, '');
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

/** `NN-name.md`, `NN_name.md`, `NN_name.protocol.md`: the original's prose files, paired by their numeric prefix. */
const NUMBERED_PROSE = /^(\d+)([-_])[^/\\]+\.md$/;

/**
 * The `*.protocol.json` a numbered prose file belongs to: none, one, or ambiguous. Candidates
 * (`withPrefix`) share its numeric prefix (`NN-` or `NN_`) and have no prose named after them (`named`).
 */
function numberedPartner(withPrefix: readonly string[], named: ReadonlySet<string>): { kind: 'none' } | { kind: 'one'; base: string } | { kind: 'ambiguous'; names: string[] } {
  const same = withPrefix.filter((n) => !named.has(baseOf(n)));
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
  // A project's own schema may allow what the compiler cannot render (no protocol_id, rules that
  // are not a list): those are problems too, with their places, never a crash.
  const found = result.ok ? shapeIssues(parsed.value) : result.issues;
  if (found.length > 0) {
    const issues: ProtocolIssue[] = found.map((issue) => {
      const where = parsed.locate(issue.pointer);
      return where === undefined ? issue : { ...issue, line: where.line, column: where.column };
    });
    throw problemsError(issues.map((issue) => ({ code: 'schema-violation' as const, file, ...issue })));
  }
  return parsed.value as Protocol;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const NEEDED = '(the compiler needs it, whatever protocol.schema.json allows)';

/** What rendering and editing need of a source that passed the project's schema. */
function shapeIssues(value: unknown): ProtocolIssue[] {
  if (!isObject(value)) return [{ pointer: '', message: `must be a JSON object ${NEEDED}` }];
  const issues: ProtocolIssue[] = [];
  if (typeof value.protocol_id !== 'string' || value.protocol_id === '') issues.push({ pointer: '/protocol_id', message: `must be a non-empty string ${NEEDED}` });
  if (value.description !== undefined && typeof value.description !== 'string') issues.push({ pointer: '/description', message: `must be a string ${NEEDED}` });
  for (const key of ['associated_tools', 'associated_artifacts', 'deprecated_tools']) {
    const list = value[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((t) => typeof t !== 'string'))) issues.push({ pointer: `/${key}`, message: `must be a list of strings ${NEEDED}` });
  }
  if (value.rules === undefined) return issues;
  if (!Array.isArray(value.rules)) return [...issues, { pointer: '/rules', message: `must be a list ${NEEDED}` }];
  for (const [i, rule] of value.rules.entries()) {
    if (!isObject(rule)) issues.push({ pointer: `/rules/${i}`, message: `must be an object ${NEEDED}` });
    else for (const key of ['rule_id', 'description', 'enforcement']) if (rule[key] !== undefined && typeof rule[key] !== 'string') issues.push({ pointer: `/rules/${i}/${key}`, message: `must be a string ${NEEDED}` });
  }
  return issues;
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
