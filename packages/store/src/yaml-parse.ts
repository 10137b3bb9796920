/**
 * YAML input (FSM definitions, protocols, registries written as `*.yaml`/`*.yml`), read like JSON:
 * the same guarded read, the same refusal of `__proto__`/`constructor`/`prototype` keys, errors
 * with the file and line, and a JSON-pointer locator for schema diagnostics. The `yaml` package is
 * imported on first use only, so commands that read JSON never pay for it.
 */
import type * as Yaml from 'yaml';
import { StoreError, UnsafeInputError } from './errors.js';
import { locate, parseJson, type Located } from './json-parse.js';
import { readTextFile, readTextFileSync, type JsonFile, type ReadOptions, type TextFile } from './read-file.js';

/** Not well-formed YAML (or a YAML feature refused: duplicate keys, alias bombs): always has a line. */
export class YamlParseError extends StoreError {
  constructor(path: string, reason: string, place: { line: number; column: number }) {
    super('parse-error', path, reason, place);
  }
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a path names a YAML file (`.yaml` or `.yml`, any case). */
export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** YAML text -> its value and a locator (JSON pointer -> line, column). Throws YamlParseError / UnsafeInputError. */
export async function parseYaml(text: string, options: { path?: string } = {}): Promise<Pick<JsonFile, 'value' | 'locate'>> {
  const path = options.path ?? '<input>';
  const { LineCounter, parseDocument } = await loadYaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter, uniqueKeys: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const pos = error.linePos?.[0] ?? { line: 1, col: 1 };
        // yaml's message repeats the place ("at line 3, column 1:"); the error carries it already.
    const reason = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?.*$/, '');
    throw new YamlParseError(path, `invalid YAML: ${reason}`, { line: pos.line, column: pos.col });
  }
  let value: unknown;
  try {
    // An alias bomb (a billion laughs) stops here instead of filling memory.
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new YamlParseError(path, `invalid YAML: ${(err as Error).message}`, { line: 1, column: 1 });
  }
  const at = (pointer: string): Located | undefined => {
    const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    // The member itself, else its deepest existing ancestor (as the JSON locator does).
    for (let n = segments.length; n >= 0; n--) {
      const node = doc.getIn(segments.slice(0, n).map((s) => (/^\d+$/.test(s) ? Number(s) : s)), true) as { range?: [number, number, number] } | undefined;
      if (node?.range !== undefined) {
        const p = lineCounter.linePos(node.range[0]);
        const found = n === 0 ? '' : `/${pointer.slice(1).split('/').slice(0, n).join('/')}`;
        return { line: p.line, column: p.col, offset: node.range[0], pointer: found, exact: n === segments.length };
      }
    }
    return undefined;
  };
  const bad = unsafeKey(doc.contents, []);
  if (bad !== undefined) {
    const p = lineCounter.linePos(bad.offset);
    throw new UnsafeInputError(path, bad.key, { line: p.line, column: p.col, pointer: `/${bad.path.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}` });
  }
  return { value, locate: at };
}

/** A JSON or YAML file (by extension), guarded and parsed, with its locator. YAML is loaded lazily. */
export async function readDataFile(path: string, options: ReadOptions = {}): Promise<JsonFile> {
  const file = await readTextFile(path, options);
  return withData(file);
}

/**
 * `readDataFile` with the synchronous read the CLI uses for small inputs: a JSON file is parsed at
 * once; only a YAML file awaits (the lazy import of the parser).
 */
export async function readDataFileSync(path: string, options: ReadOptions = {}): Promise<JsonFile> {
  return withData(readTextFileSync(path, options));
}

async function withData(file: TextFile): Promise<JsonFile> {
  if (!isYamlPath(file.path)) return { ...file, value: parseJson(file.text, { path: file.path }), locate: (pointer: string) => locate(file.text, pointer) };
  return { ...file, ...(await parseYaml(file.text, { path: file.path })) };
}

type YamlNode = { range?: [number, number, number]; items?: { key?: { value?: unknown; range?: [number, number, number] }; value?: unknown }[] } | null | undefined;

/** The first refused key in the document tree, with its offset (iterative: nesting depth is the user's). */
function unsafeKey(root: unknown, at: string[]): { key: string; offset: number; path: string[] } | undefined {
  const stack: { node: YamlNode; path: string[] }[] = [{ node: root as YamlNode, path: at }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node === null || node === undefined || !Array.isArray(node.items)) continue;
    for (const [i, item] of node.items.entries()) {
      const isPair = typeof item === 'object' && item !== null && 'key' in item;
      const key = isPair ? item.key?.value : undefined;
      if (isPair && typeof key === 'string' && UNSAFE_KEYS.has(key)) return { key, offset: item.key?.range?.[0] ?? 0, path: [...path, key] };
      stack.push({ node: (isPair ? item.value : item) as YamlNode, path: [...path, isPair ? String(key) : String(i)] });
    }
  }
  return undefined;
}

/**
 * yaml loaded on first use (most files are JSON). Node gives a CommonJS module's exports as named
 * exports of import(); esbuild's code-split bundles (the ratchet CLI) give them only as `default`.
 */
async function loadYaml(): Promise<typeof Yaml> {
  const mod = await import('yaml');
  return 'parseDocument' in mod ? mod : (mod as unknown as { default: typeof Yaml }).default;
}
