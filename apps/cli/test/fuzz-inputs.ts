/**
 * Issue 16, fuzzing through the CLI: what every fuzz test shares. Hostile generators (random bytes,
 * nesting, prototype keys, BOM + CRLF, truncation, splicing; per format: YAML alias bombs and
 * broken front matter, XML entity expansion and DOCTYPE, a bad JSONL line among good ones, a valid
 * JSON document with one value swapped for a hostile one), the in-process `ratchet`, a snapshot of
 * every file under a project, and `fuzz`, which runs a property with the fixed seed and prints how
 * many inputs it tried (the number BENCHMARKS.md records).
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalFileFor } from '@ratchet/store';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

/** One seed for every fuzz test: a failure is reproduced by running the same file again. */
export const SEED = 16;
/** Inputs per parser, unless a slow command says otherwise (and its test prints so). */
export const RUNS = 120;
/** The exit code of an internal error (an uncaught exception in a command). */
export const EXIT_INTERNAL = 70;

export interface Result {
  code: number;
  out: string;
  err: string;
}

/** `ratchet <args>` in process, stdout and stderr captured (stderr explains an exit 70 when it fails). */
export async function ratchet(cwd: string, args: string[], stdin = ''): Promise<Result> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve(stdin) };
  const code = await run(args, io);
  return { code, out, err };
}

/** `ratchet <args>` that must succeed: setting up a fixture, where a failure is the fixture's, not the fuzz's. */
export async function ok(cwd: string, args: string[], stdin = ''): Promise<Result> {
  const r = await ratchet(cwd, args, stdin);
  expect(r.code, `${args.join(' ')}\n${r.err}`).toBe(0);
  return r;
}

/** Never exit 70; the message carries the command and stderr (the stack of the internal error). */
export function expectNoInternalError(r: Result, args: readonly string[]): void {
  expect(r.code, `ratchet ${args.join(' ')} exited 70:\n${r.err}`).not.toBe(EXIT_INTERNAL);
}

/**
 * `ratchet <args>` in `dir`: never exit 70, and when `refused(code)` (by default any failure) no
 * file under `dir` changed. Returns the exit code.
 */
export async function refusalKeepsState(dir: string, args: string[], refused: (code: number) => boolean = (code) => code !== 0, stdin = ''): Promise<number> {
  const before = snapshot(dir);
  const r = await ratchet(dir, args, stdin);
  expectNoInternalError(r, args);
  if (refused(r.code)) expect(snapshot(dir), `ratchet ${args.join(' ')} exited ${r.code} and changed files:\n${r.err}`).toEqual(before);
  return r.code;
}

/** A command that only reads: never exit 70, and no file under `dir` changes, whatever it exits with. */
export function readOnly(dir: string, args: string[]): Promise<number> {
  return refusalKeepsState(dir, args, () => true);
}

/**
 * Every file under `dir` (recursively, symbolic links as their target text) by relative path, as a
 * digest: two snapshots are equal exactly when no file was created, removed or changed (lock and
 * temp files included, so a refused command that leaves one behind is caught too).
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const stats = lstatSync(join(dir, path));
      if (stats.isDirectory()) walk(path);
      else if (stats.isSymbolicLink()) out[path] = `-> ${readlinkSync(join(dir, path))}`;
      else out[path] = createHash('sha256').update(readFileSync(join(dir, path))).digest('hex');
    }
  };
  walk('');
  return out;
}

/**
 * Run `property` on `runs` inputs of `arbitrary` with the fixed seed, print `fuzz: <label>: N inputs`
 * with how often each exit code came back (the codes `property` returns: a run where every input
 * exits 2 for the same dull reason shows here), and check that many were tried (a property that
 * stopped early would otherwise pass quietly).
 */
export async function fuzz<T>(label: string, arbitrary: fc.Arbitrary<T>, runs: number, property: (input: T) => Promise<readonly number[]>): Promise<void> {
  let tried = 0;
  const started = performance.now();
  const codes = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (input) => {
      tried++;
      for (const code of await property(input)) codes.set(code, (codes.get(code) ?? 0) + 1);
    }),
    { numRuns: runs, seed: SEED, reporter: compactReport<[T]> },
  );
  const tally = [...codes].sort(([a], [b]) => a - b).map(([code, n]) => `${code} x${n}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz: ${label}: ${tried} inputs in ${seconds.toFixed(1)} s (exit codes: ${tally.join(', ')})`);
  expect(tried).toBe(runs);
}

/** fast-check's report with long lines cut (a counterexample may be a 200,000-character line), the failure kept as the cause. */
function compactReport<Ts>(details: fc.RunDetails<Ts>): void {
  if (!details.failed) return;
  const cut = (line: string): string => (line.length > 2000 ? `${line.slice(0, 2000)}... (${line.length} characters)` : line);
  throw new Error((fc.defaultReportMessage(details) ?? '').split('\n').map(cut).join('\n'), { cause: details.errorInstance });
}

/**
 * Every file under `dir` as it is now, to put back before each input: a command that accepted the
 * previous input (and moved a session on, or recorded a digest) does not change what the next one meets.
 * The store's journal outside the project (what Ratchet last wrote in each directory) is put back with
 * them, else the restored files would read as rolled back by hand.
 */
export function keep(dir: string): () => void {
  const { dirs, files } = tree(dir);
  const journalOf = (rel: string): string | undefined => journalFileFor(join(dir, rel, 'any'));
  const journals = new Map<string, Buffer | undefined>();
  for (const rel of ['', ...dirs]) {
    const file = journalOf(rel);
    if (file !== undefined && !journals.has(file)) journals.set(file, existsSync(file) ? readFileSync(file) : undefined);
  }
  return () => {
    // Directories a command created since (.ratchet/flows, pins): their journals are dropped.
    for (const rel of tree(dir).dirs) {
      const file = journalOf(rel);
      if (file !== undefined && !journals.has(file)) rmSync(file, { force: true });
    }
    for (const [file, bytes] of journals) {
      if (bytes === undefined) rmSync(file, { force: true });
      else writeFileSync(file, bytes);
    }
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
    for (const path of dirs) mkdirSync(join(dir, path), { recursive: true });
    for (const [path, bytes] of files) writeFileSync(join(dir, path), bytes);
  };
}

/** Every directory and file under `dir`, by relative path (files with their bytes). */
function tree(dir: string): { dirs: string[]; files: Map<string, Buffer> } {
  const dirs: string[] = [];
  const files = new Map<string, Buffer>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (lstatSync(join(dir, path)).isDirectory()) {
        dirs.push(path);
        walk(path);
      } else files.set(path, readFileSync(join(dir, path)));
    }
  };
  walk('');
  return { dirs, files };
}

/** `text` with `inserted` at a random place. */
function spliced(text: string, inserted: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.integer({ min: 0, max: text.length }), inserted).map(([i, s]) => text.slice(0, i) + s + text.slice(i));
}

/**
 * Hostile variations of a valid input: random text and bytes, nesting up to 5,000 levels, prototype
 * keys, BOM + CRLF, truncation, arbitrary JSON, random text spliced in; and, as often as all of
 * those together, the format's own (`extra`, e.g. `yamlBombs`, `xmlBombs`, `jsonMutations`).
 */
export function hostile(valid: string, extra: fc.Arbitrary<string>[] = []): fc.Arbitrary<string> {
  const generic = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.integer({ min: 1, max: 5000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
    fc.integer({ min: 1, max: 5000 }).map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
    fc.integer({ min: 0, max: valid.length }).map((n) => valid.slice(0, n)),
    fc.constantFrom('__proto__', 'constructor', 'prototype').map((k) => valid.replace('{', `{"${k}": {"polluted": true}, `)),
    fc.constant(`\ufeff${valid.replace(/\n/g, '\r\n')}`),
    fc.json({ maxDepth: 6 }),
    spliced(valid, fc.string({ unit: 'binary', maxLength: 20 })),
  );
  return extra.length === 0 ? generic : fc.oneof(generic, fc.oneof(...extra));
}

/** Text-file hazards: NUL bytes, a lone CR, a 200,000-character line, each at a random place. */
export function textBombs(valid: string): fc.Arbitrary<string>[] {
  return [
    spliced(valid, fc.constantFrom('\0', '\0\0\0\0', '\r', '\u2028', '\ud800')),
    spliced(valid, fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n))),
  ];
}

/**
 * YAML hazards, spliced at `at` (the start of a YAML document or just after a front matter's `---`):
 * alias bombs (`b: &b [*a, *a]`, nested up to 40 levels: 2^40 nodes if expanded), an alias to an
 * undefined anchor, merge keys, tags, complex keys, prototype keys, flow nesting up to 5,000 levels
 * and block nesting up to 2,800, and a document marker in the middle.
 */
export function yamlBombs(valid: string, at: number): fc.Arbitrary<string>[] {
  const insert = (yaml: fc.Arbitrary<string>): fc.Arbitrary<string> => yaml.map((y) => valid.slice(0, at) + y + valid.slice(at));
  return [
    insert(
      fc.integer({ min: 1, max: 40 }).map((n) => {
        let y = 'l0: &l0 [x, x]\n';
        for (let i = 1; i <= n; i++) y += `l${i}: &l${i} [*l${i - 1}, *l${i - 1}]\n`;
        return y;
      }),
    ),
    insert(fc.constantFrom('bad: *nope\n', 'a: &a x\nb: *a\n', '<<: {polluted: true}\n', '__proto__: {polluted: true}\n', 'x: !!binary aGVsbG8=\n', 'x: !!js/function "f() {}"\n', '? [a, b]\n: c\n', 'x: !!set {a, b}\n', '---\n', '...\n', '%YAML 1.1\n', 'x: 0x_1\n', 'x: 2001-12-14t21:59:43.10-05:00\n')),
    insert(fc.integer({ min: 1, max: 5000 }).map((d) => `deep: ${'['.repeat(d)}${']'.repeat(d)}\n`)),
    // Block nesting: 1,500 to 2,800 levels (each indented one more space, under the 4 MiB read limit)
    // is where the yaml library's parser overflows the stack inside a command; fast-check's integers
    // lean to small values, so this range is asked for on its own.
    insert(fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1500, max: 2800 })).map((d) => `${Array.from({ length: d }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} v\n`)),
  ];
}

/**
 * Front matter hazards for `---`-delimited Markdown: the closing `---` cut off, only the opening
 * line left, `---` without a newline, an indented or CRLF-terminated delimiter.
 */
export function frontMatterBombs(valid: string): fc.Arbitrary<string>[] {
  const close = valid.indexOf('\n---', 3);
  return [
    fc.constant(close < 0 ? valid : valid.slice(0, close + 1) + valid.slice(close + 4)),
    fc.constantFrom('---', '---\n', '---\r\n', ' ---\n', '---\n---', '---\n...\n', `---\n${valid}`, valid.replace('---\n', '--- \n')),
  ];
}

/**
 * XML hazards: a DOCTYPE with billion-laughs entities, undefined and huge character references,
 * processing instructions, CDATA, comments, nesting up to 5,000 levels, and attributes of the root
 * element replaced with traversal, separators, out-of-range numbers and duplicates.
 */
export function xmlBombs(valid: string): fc.Arbitrary<string>[] {
  const body = valid.indexOf('>', valid.indexOf('<workspace')) + 1;
  const laughs = (n: number): string => {
    let d = '<!DOCTYPE workspace [\n<!ENTITY l0 "lol">\n';
    for (let i = 1; i <= n; i++) d += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">\n`;
    return `${d}]>\n`;
  };
  // Each attribute of the root element with values that must not reach a file name or a number unchecked.
  const attributes: Record<string, string[]> = {
    slug: ['../../outside', 'a/b', '..', '', 'x'.repeat(10_000), 'other', 'a\0b'],
    seq: ['99999999999', '-1', '1e3', '0', '2', ''],
    id: ['001_../../outside', '..', '', '3_c', 'x'],
    status: ['complete', 'blocked', 'weird', ''],
    attempt: ['0', '1', '2', '999999', '1000000', 'x'],
    campaign: ['other', '', '../x'],
  };
  const tampered = Object.entries(attributes).map(([name, values]) =>
    fc.constantFrom(...values).map((value) => {
      const re = new RegExp(`(<workspace[^>]*?) ${name}="[^"]*"`);
      return re.test(valid) ? valid.replace(re, `$1 ${name}="${value}"`) : valid.replace('<workspace', `<workspace ${name}="${value}"`);
    }),
  );
  return [
    fc.integer({ min: 1, max: 12 }).map((n) => valid.replace(/\n/, `\n${laughs(n)}`).replace('<objective>', '<objective>&l1;')),
    fc.constantFrom('<!DOCTYPE workspace SYSTEM "file:///etc/passwd">', '<!ENTITY x SYSTEM "file:///etc/passwd">').map((d) => valid.replace(/\n/, `\n${d}\n`)),
    spliced(valid.slice(body), fc.constantFrom('&nope;', '&amp', '&#0;', '&#xD800;', '&#1114112;', '&#x110000;', '&#99999999;', '&lt', '<?pi x?>', '<![CDATA[ ]]> ]]>', '<!-- -- -->', '</workspace>', '<workspace>', '\0')).map((rest) => valid.slice(0, body) + rest),
    fc.integer({ min: 1, max: 5000 }).map((d) => valid.slice(0, body) + '<a>'.repeat(d) + '</a>'.repeat(d) + valid.slice(body)),
    ...tampered,
    fc.constantFrom(...Object.keys(attributes)).map((name) => valid.replace('<workspace', `<workspace ${name}="1"`)),
  ];
}

/** Hostile JSON values: traversal and separators, a ReDoS pattern, huge and odd numbers, deep arrays, wrong types. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('../../outside', '/etc/passwd', '', ' ', 'a/b', '..', '\0', '\ud800', '__proto__', '(a+)+$', '^(a|a)*$', '[', 'x'.repeat(100_000), 'NaN'),
  fc.constantFrom(-1, 0, 1.5, 1e308, -1e308, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 999_999_999_999),
  fc.constantFrom(null, true, false, [], {}),
  fc.integer({ min: 1, max: 3000 }).map((d) => JSON.parse(`${'['.repeat(d)}${']'.repeat(d)}`) as unknown),
  fc.jsonValue({ maxDepth: 3 }),
);

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

/**
 * The valid JSON document with one value (at any depth, the root included) replaced by a hostile
 * one, or one key removed: the inputs that get past the JSON parser and test the shape checks.
 */
export function jsonMutations(valid: string): fc.Arbitrary<string>[] {
  const doc = JSON.parse(valid) as unknown;
  const paths = pathsOf(doc);
  const at = (path: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): string => {
    const copy = structuredClone(doc);
    if (path.length === 0) return '';
    let parent = copy as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    change(parent, path[path.length - 1]!);
    return JSON.stringify(copy, null, 2);
  };
  return [
    fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, value]) => (path.length === 0 ? JSON.stringify(value) : at(path, (p, k) => void (p[k] = value)))),
    fc.constantFrom(...paths.filter((p) => p.length > 0)).map((path) =>
      at(path, (p, k) => {
        if (Array.isArray(p)) p.splice(k as number, 1);
        else delete p[k];
      }),
    ),
  ];
}

/**
 * A JSONL file from valid lines with one line in the middle made hostile (any `hostile` variant of
 * it, or a JSON mutation of it), blank and CRLF lines, or a line repeated.
 */
export function hostileJsonl(lines: readonly string[]): fc.Arbitrary<string> {
  const middle = Math.floor(lines.length / 2);
  const join = (replacement: string): string => `${[...lines.slice(0, middle), replacement, ...lines.slice(middle + 1)].join('\n')}\n`;
  const line = lines[middle]!;
  return fc.oneof(
    hostile(line, jsonMutations(line)).map((bad) => join(bad.replace(/\n/g, ' '))),
    fc.constantFrom('', '   ', '\r', '{}', 'null', '[]', '"x"').map(join),
    fc.constant(`${lines.join('\r\n')}\r\n`),
    fc.constant(`${[...lines, line].join('\n')}\n`),
    hostile(lines.join('\n')),
  );
}
