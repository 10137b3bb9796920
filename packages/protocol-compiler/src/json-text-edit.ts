/**
 * Minimal, formatting-preserving edits of JSON text. `protocol update` changes one string, appends
 * one array item or removes one: re-serialising the whole document would reflow arrays a person
 * wrote on one line, re-escape strings and rewrite lines nobody touched. These edits replace only
 * the bytes that change and copy the surrounding style (indentation, separators, line endings).
 *
 * The input is JSON that has already parsed (the store's guarded parser); the caller re-parses the
 * result and checks it equals the intended value, so a style this module does not foresee falls
 * back to a plain re-serialisation instead of writing something wrong.
 */
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
  const root = new Scanner(text).document();
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

/** Spans of every value of a document that is known to be valid JSON. */
class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  document(): Node {
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    return this.value();
  }

  private ws(): void {
    while (this.pos < this.text.length && ' \t\r\n'.includes(this.text[this.pos]!)) this.pos++;
  }

  private value(): Node {
    this.ws();
    const start = this.pos;
    const c = this.text[this.pos];
    if (c === '{') {
      this.pos++;
      const members: { key: string; keyStart: number; keyEnd: number; value: Node }[] = [];
      this.ws();
      while (this.text[this.pos] !== '}') {
        this.ws();
        const keyStart = this.pos;
        this.string();
        const keyEnd = this.pos;
        const key = JSON.parse(this.text.slice(keyStart, keyEnd)) as string;
        this.ws();
        this.expect(':');
        const value = this.value();
        members.push({ key, keyStart, keyEnd, value });
        this.ws();
        if (this.text[this.pos] === ',') this.pos++;
        this.ws();
      }
      this.pos++;
      return { kind: 'object', start, end: this.pos, members };
    }
    if (c === '[') {
      this.pos++;
      const items: Node[] = [];
      this.ws();
      while (this.text[this.pos] !== ']') {
        items.push(this.value());
        this.ws();
        if (this.text[this.pos] === ',') this.pos++;
        this.ws();
      }
      this.pos++;
      return { kind: 'array', start, end: this.pos, items };
    }
    if (c === '"') {
      this.string();
      return { kind: 'scalar', start, end: this.pos };
    }
    while (this.pos < this.text.length && !' \t\r\n,]}'.includes(this.text[this.pos]!)) this.pos++;
    if (this.pos === start) throw new Error(`unexpected input at offset ${start}`);
    return { kind: 'scalar', start, end: this.pos };
  }

  private string(): void {
    this.expect('"');
    while (this.pos < this.text.length && this.text[this.pos] !== '"') this.pos += this.text[this.pos] === '\\' ? 2 : 1;
    this.expect('"');
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) throw new Error(`expected ${char} at offset ${this.pos}`);
    this.pos++;
  }
}
