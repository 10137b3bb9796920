/**
 * Minimal, formatting-preserving edits of JSON text. `protocol update` changes one string, appends
 * one array item or removes one: re-serialising the whole document would reflow arrays a person
 * wrote on one line, re-escape strings and rewrite lines nobody touched. These edits replace only
 * the bytes that change and copy the surrounding style (indentation, separators, line endings).
 *
 * jsonc-parser (the parser behind VS Code's settings editor) finds every value's place in the text.
 * Its own `modify()` is not used: it reformats what it touches (a one-line array becomes one item
 * per line, a one-line file is expanded), and with the file's formatting options it wrote text that
 * did not parse on some layouts the property test generates;
 * the splices below copy the neighbours' separators instead, which the property test in
 * test/edit.test.ts holds to every layout.
 *
 * The input is JSON that has already parsed (the store's guarded parser); the caller re-parses the
 * result and checks it equals the intended value, so a style this module does not foresee falls
 * back to a plain re-serialisation instead of writing something wrong.
 */
import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import { parseJsonPointer } from '@ratchet/store';

export type JsonTextOp =
  /** Replace the value at `pointer` (a scalar, e.g. a rule description). */
  | { op: 'replace'; pointer: string; value: string | number | boolean | null }
  /** Append `value` to the array at `pointer`. */
  | { op: 'append'; pointer: string; value: unknown }
  /** Remove item `index` of the array at `pointer`. */
  | { op: 'remove'; pointer: string; index: number }
  /** Add `key: value` as the last member of the object at `pointer`. */
  | { op: 'add-member'; pointer: string; key: string; value: unknown };

type Node =
  | { kind: 'object'; start: number; end: number; members: { key: string; keyStart: number; keyEnd: number; value: Node }[] }
  | { kind: 'array'; start: number; end: number; items: Node[] }
  | { kind: 'scalar'; start: number; end: number };

/** Applies the operations in order; throws when a pointer does not lead where the op needs. */
export function editJsonText(text: string, ops: readonly JsonTextOp[]): string {
  let out = text;
  for (const op of ops) out = applyOne(out, op);
  return out;
}

function applyOne(text: string, op: JsonTextOp): string {
  const root = spans(text);
  const node = find(root, op.pointer);
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const multiLine = (n: Node): boolean => text.slice(n.start, n.end).includes('\n');
  const unit = indentUnit(text);
  switch (op.op) {
    case 'replace':
      if (node.kind !== 'scalar') throw new Error(`${op.pointer} is not a scalar`);
      return splice(text, node.start, node.end, JSON.stringify(op.value));
    case 'append': {
      if (node.kind !== 'array') throw new Error(`${op.pointer} is not an array`);
      const last = node.items[node.items.length - 1];
      if (last === undefined) return splice(text, node.start, node.end, emptyWith(text, node, eol, unit, (ind) => formatValue(op.value, ind, unit, eol)));
      if (multiLine(node)) {
        const indent = lineIndent(text, last.start);
        return splice(text, last.end, last.end, `,${eol}${indent}${formatValue(op.value, indent, unit, eol)}`);
      }
      const sep = node.items.length >= 2 ? text.slice(node.items[0]!.end, node.items[1]!.start) : text.includes('\n') ? ', ' : ',';
      return splice(text, last.end, last.end, `${sep}${JSON.stringify(op.value)}`);
    }
    case 'remove': {
      if (node.kind !== 'array') throw new Error(`${op.pointer} is not an array`);
      const items = node.items;
      const item = items[op.index];
      if (item === undefined) throw new Error(`${op.pointer} has no item ${op.index}`);
      if (items.length === 1) return splice(text, node.start, node.end, '[]');
      if (op.index < items.length - 1) return splice(text, item.start, items[op.index + 1]!.start, '');
      return splice(text, items[op.index - 1]!.end, item.end, '');
    }
    case 'add-member': {
      if (node.kind !== 'object') throw new Error(`${op.pointer} is not an object`);
      const last = node.members[node.members.length - 1];
      const key = JSON.stringify(op.key);
      if (last === undefined) return splice(text, node.start, node.end, emptyWith(text, node, eol, unit, (ind) => `${key}: ${formatValue(op.value, ind, unit, eol)}`, '{', '}'));
      // The key/value separator as the file writes it (": " or ":").
      const colon = text.slice(last.keyEnd, last.value.start);
      if (multiLine(node)) {
        const indent = lineIndent(text, last.keyStart);
        return splice(text, last.value.end, last.value.end, `,${eol}${indent}${key}${colon}${formatValue(op.value, indent, unit, eol)}`);
      }
      const sep = node.members.length >= 2 ? text.slice(node.members[0]!.value.end, node.members[1]!.keyStart) : text.includes('\n') ? ', ' : ',';
      return splice(text, last.value.end, last.value.end, `${sep}${key}${colon}${JSON.stringify(op.value)}`);
    }
  }
}

/** `[]` or `{}` with one entry: multi-line when the document is, like JSON.stringify would write it. */
function emptyWith(text: string, node: Node, eol: string, unit: string, entry: (indent: string) => string, open = '[', close = ']'): string {
  if (!text.includes('\n')) return `${open}${entry('')}${close}`;
  const outer = lineIndent(text, node.start);
  return `${open}${eol}${outer}${unit}${entry(outer + unit)}${eol}${outer}${close}`;
}

// A value written at `indent`: nested lines continue at that indentation.
function formatValue(value: unknown, indent: string, unit: string, eol: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`);
}

/** The whitespace before the first non-blank character of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

function splice(text: string, start: number, end: number, insert: string): string {
  return `${text.slice(0, start)}${insert}${text.slice(end)}`;
}

function find(root: Node, pointer: string): Node {
  const tokens = parseJsonPointer(pointer);
  if (tokens === undefined) throw new Error(`bad JSON pointer ${pointer}`);
  let node = root;
  for (const token of tokens) {
    let next: Node | undefined;
    if (node.kind === 'object') next = [...node.members].reverse().find((m) => m.key === token)?.value;
    else if (node.kind === 'array' && /^(0|[1-9]\d*)$/.test(token)) next = node.items[Number(token)];
    if (next === undefined) throw new Error(`nothing at ${pointer}`);
    node = next;
  }
  return node;
}

/** Spans of every value of a document that is known to be valid JSON, from jsonc-parser's tree. */
function spans(text: string): Node {
  // A BOM is not JSON to jsonc-parser: blank it out, keeping every offset.
  const tree = parseTree(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text, undefined, { allowTrailingComma: false, disallowComments: true });
  if (tree === undefined) throw new Error('not JSON');
  return toNode(tree);
}

function toNode(node: JsonNode): Node {
  const start = node.offset;
  const end = node.offset + node.length;
  const children = node.children ?? [];
  if (node.type === 'object') {
    return {
      kind: 'object',
      start,
      end,
      members: children.map((property) => {
        const [key, value] = property.children!;
        return { key: key!.value as string, keyStart: key!.offset, keyEnd: key!.offset + key!.length, value: toNode(value!) };
      }),
    };
  }
  if (node.type === 'array') return { kind: 'array', start, end, items: children.map(toNode) };
  return { kind: 'scalar', start, end };
}
