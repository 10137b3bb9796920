/**
 * YAML front matter: split it off, parse it with line numbers, and write it back canonically
 * (known keys first, as JSON-quoted scalars, which are valid YAML; unknown keys through `yaml`).
 */
import { LineCounter, parseDocument, stringify, isCollection, isMap, isPair, isScalar, visit, type Alias, type Document } from 'yaml';
import { MAX_JSON_DEPTH } from '@ratchet/store';
import type { Diagnostic } from './types.js';

export interface SplitFile {
  /** Front matter data (null-prototype object), or undefined when absent or broken. */
  data: Record<string, unknown> | undefined;
  /** Lines of the body (after the closing `---`), LF only. */
  body: string[];
  /** 1-based line number of body[0]. */
  bodyLine: number;
  diagnostics: Diagnostic[];
  /** Where each front matter key is written, so a bad value is reported on its own line. */
  keyPlaces: Map<string, KeyPlace>;
}

export interface KeyPlace {
  line: number;
  column: number;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Front matter nested deeper than this is refused, as JSON state files are (@ratchet/store's limit).
 * What reads a parsed value (the alias check, toJSON, and on a rewrite the yaml library's stringify)
 * recurses with more stack per level than parsing did: near the stack's limit a value that parsed
 * would overflow later, an internal error in the middle of a command.
 */
export const MAX_FRONT_MATTER_DEPTH = MAX_JSON_DEPTH;

/** Normalise a file's text: BOM dropped, CRLF/CR to LF (line numbers are unchanged). */
export function normalizeText(text: string): string {
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.includes('\r')) t = t.replace(/\r\n?/g, '\n');
  return t;
}

export function splitFrontMatter(text: string, required: boolean): SplitFile {
  const diagnostics: Diagnostic[] = [];
  const keyPlaces = new Map<string, KeyPlace>();
  const lines = text.split('\n');
  if (lines[0] !== '---') {
    if (required) diagnostics.push({ rule: 'missing-front-matter', severity: 'error', message: 'missing YAML front matter: the file must start with a line "---"', line: 1, column: 1 });
    return { data: required ? undefined : Object.create(null) as Record<string, unknown>, body: lines, bodyLine: 1, diagnostics, keyPlaces };
  }
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '---' || lines[i] === '...') {
      close = i;
      break;
    }
  }
  if (close < 0) {
    diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: 'front matter is not closed: no line "---" after the opening one', line: 1, column: 1 });
    return { data: undefined, body: [], bodyLine: lines.length + 1, diagnostics, keyPlaces };
  }
  const yamlText = lines.slice(1, close).join('\n');
  const data = parseYaml(yamlText, 2, diagnostics, keyPlaces);
  return { data, body: lines.slice(close + 1), bodyLine: close + 2, diagnostics, keyPlaces };
}

function parseYaml(yamlText: string, firstLine: number, diagnostics: Diagnostic[], keyPlaces: Map<string, KeyPlace>): Record<string, unknown> | undefined {
  const counter = new LineCounter();
  const place = (offset: number | undefined): { line: number; column: number } => {
    const pos = counter.linePos(offset ?? 0);
    return { line: pos.line + firstLine - 1, column: pos.col };
  };
  // The yaml library recurses once per nested collection: a couple of thousand levels (`k:` each
  // indented one more space) overflow the stack, which its parser throws and its composer reports as
  // an error. Either way the file's problem, said the same way, not an internal error.
  const tooDeepToRead = `front matter nests too deeply to read (more than ${MAX_FRONT_MATTER_DEPTH} levels is refused)`;
  let doc: Document.Parsed;
  try {
    doc = parseDocument(yamlText, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: tooDeepToRead, line: firstLine, column: 1 });
    return undefined;
  }
  if (doc.errors.length > 0) {
    const overflow = doc.errors.find((e) => e.message.includes('Maximum call stack size exceeded'));
    if (overflow !== undefined) diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: tooDeepToRead, ...place(overflow.pos[0]) });
    else for (const e of doc.errors) diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: `front matter: ${e.message.split('\n')[0]}`, ...place(e.pos[0]) });
    return undefined;
  }
  const deep = tooDeep(doc.contents, MAX_FRONT_MATTER_DEPTH);
  if (deep !== undefined) {
    diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: `front matter nests deeper than ${MAX_FRONT_MATTER_DEPTH} levels`, ...place(deep) });
    return undefined;
  }
  // A rewrite writes values, not the anchors they share: `b: &b [*a, *a]` would come back as copies
  // (or, nested, as a blow-up). Refused with its place rather than changed behind the writer's back.
  let alias: Alias | undefined;
  visit(doc, {
    Alias(_, node) {
      alias = node;
      return visit.BREAK;
    },
  });
  if (alias !== undefined) {
    diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: `front matter: YAML aliases (*${alias.source}) are not supported; write the value out`, ...place(alias.range?.[0]) });
    return undefined;
  }
  const out = Object.create(null) as Record<string, unknown>;
  if (doc.contents === null) return out;
  if (!isMap(doc.contents)) {
    diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: 'front matter must be a mapping of keys to values', ...place(doc.contents.range?.[0]) });
    return undefined;
  }
  let ok = true;
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const at = place(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
    if (key === undefined) {
      diagnostics.push({ rule: 'malformed-front-matter', severity: 'error', message: 'front matter keys must be plain strings', ...at });
      ok = false;
      continue;
    }
    if (UNSAFE_KEYS.has(key) || hasUnsafeKey(pair.value)) {
      diagnostics.push({ rule: 'unsafe-key', severity: 'error', message: `front matter key "${key}" is refused (or holds __proto__/constructor/prototype)`, ...at });
      ok = false;
      continue;
    }
    keyPlaces.set(key, at);
    out[key] = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? (isScalar(pair.value) ? pair.value.value : null);
  }
  return ok ? out : undefined;
}

/** The offset of the first collection nested deeper than `max`, found without recursion; undefined when none is. */
function tooDeep(root: unknown, max: number): number | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isCollection(node)) continue;
    if (depth > max) return node.range?.[0] ?? 0;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push({ node: item.key, depth: depth + 1 }, { node: item.value, depth: depth + 1 });
      else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return undefined;
}

function hasUnsafeKey(node: unknown): boolean {
  if (isMap(node)) return node.items.some((p) => (isScalar(p.key) && UNSAFE_KEYS.has(String(p.key.value))) || hasUnsafeKey(p.value));
  const items = (node as { items?: unknown[] } | null)?.items;
  return Array.isArray(items) && items.some(hasUnsafeKey);
}

/** `key: value` for a known key: strings JSON-quoted, other JSON values in flow style. */
/** The place of a front matter key, or the front matter's first line when it is not known. */
export function keyPlace(keyPlaces: ReadonlyMap<string, KeyPlace>, key: string): KeyPlace {
  return keyPlaces.get(key) ?? { line: 2, column: 1 };
}

export function yamlLine(key: string, value: unknown): string {
  return `${key}: ${JSON.stringify(value)}\n`;
}

/** Unknown keys, written by the yaml library (their canonical form). */
export function yamlExtra(extra: Record<string, unknown>): string {
  let out = '';
  for (const [key, value] of Object.entries(extra)) out += stringify({ [key]: value }, { lineWidth: 0 });
  return out;
}
