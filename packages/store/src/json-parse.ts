/**
 * JSON parsing for files people and agents edit. `JSON.parse` does the work when the text is fine;
 * only when it fails, or when the text could hide a `__proto__`/`constructor`/`prototype` key, a small
 * position-tracking parser runs, so every error names a line and column. The same scanner serves
 * `locate`, which turns a JSON pointer from any diagnostic into a line and column.
 */
import { JsonParseError, UnsafeInputError } from './errors.js';
import { parseJsonPointer, toJsonPointer } from './json-pointer.js';

export interface ParseOptions {
  /** Named in errors; defaults to `<input>`. */
  path?: string;
  /** Line number of the text's first line in its file (JSONL parses one line at a time). Default 1. */
  firstLine?: number;
  /** Refuse arrays and objects nested deeper than this (JsonParseError at the opening bracket). Default `MAX_JSON_DEPTH`. */
  maxDepth?: number;
}

export interface Location {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units (what editors and tsc report). */
  column: number;
  /** 0-based offset in the text (after a stripped BOM). */
  offset: number;
}

export interface Located extends Location {
  /** The pointer actually found: the requested one, or its deepest existing ancestor. */
  pointer: string;
  /** False when the requested member does not exist and `pointer` is an ancestor. */
  exact: boolean;
  /** Where the member's name is, when `pointer` ends at an object member (for "unknown property" problems). */
  key?: Location;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// A forbidden key can only hide in text that spells it out or uses a \u escape.
const SUSPICIOUS = /__proto__|constructor|prototype|\\u/u;
/**
 * How deep arrays and objects may nest in any JSON Ratchet reads. JSON.parse has no limit, but the
 * code that walks a value afterwards (schema validators, structuredClone, renderers) recurses: a
 * value nested 100,000 deep would overflow its stack. No real document needs more than a few dozen.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Parse JSON text: strips a UTF-8 BOM, accepts CRLF, refuses forbidden keys (UnsafeInputError) and
 * reports malformed text as JsonParseError with line and column.
 */
export function parseJson(text: string, options: ParseOptions = {}): unknown {
  const path = options.path ?? '<input>';
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1) throw new RangeError(`maxDepth must be a positive integer, got ${String(maxDepth)}`);
  const body = stripBom(text);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    new Scanner(body, path, options.firstLine, true, maxDepth).parseDocument();
    // The scanner is stricter-or-equal to JSON.parse; reaching here would be a scanner bug.
    throw new JsonParseError(path, `invalid JSON: ${(err as Error).message}`, { line: options.firstLine ?? 1, column: 1 });
  }
  const tooDeep = firstTooDeep(body, maxDepth);
  if (tooDeep !== -1) throw new JsonParseError(path, `nesting deeper than ${maxDepth} levels`, lineColumn(body, tooDeep, options.firstLine));
  if (SUSPICIOUS.test(body) && hasForbiddenKey(value)) {
    new Scanner(body, path, options.firstLine, true, maxDepth).parseDocument();
    throw new UnsafeInputError(path, '__proto__', {});
  }
  return value;
}

/**
 * Where `pointer` points in `text`: the start of that value, or of its deepest existing ancestor
 * when the member is missing (a "required property" error points at the object). `undefined` when
 * the pointer is malformed or the text is not valid JSON before that place (the scan stops there).
 */
export function locate(text: string, pointer: string): Located | undefined {
  const segments = parseJsonPointer(pointer);
  if (segments === undefined) return undefined;
  const scanner = new Scanner(stripBom(text), '<locate>', 1, false);
  try {
    return scanner.locate(segments);
  } catch (err) {
    if (err instanceof JsonParseError) return undefined;
    throw err;
  }
}

/** Line and column (1-based) of a 0-based offset. CRLF, LF and lone CR each end a line. */
export function lineColumn(text: string, offset: number, firstLine = 1): { line: number; column: number } {
  let line = firstLine;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Offset of the first bracket that opens a level deeper than `maxDepth` in valid JSON text, or -1.
 * A scan of the text (strings skipped), cheaper than walking the parsed value.
 */
function firstTooDeep(text: string, maxDepth: number): number {
  // Fewer brackets than the limit cannot nest past it: most files stop here.
  let brackets = 0;
  for (let i = text.indexOf('['); i !== -1 && brackets <= maxDepth; i = text.indexOf('[', i + 1)) brackets++;
  for (let i = text.indexOf('{'); i !== -1 && brackets <= maxDepth; i = text.indexOf('{', i + 1)) brackets++;
  if (brackets <= maxDepth) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return -1;
        let slashes = 0;
        while (text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

function hasForbiddenKey(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return true;
      stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

const NUMBER_LOOSE = /-?[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]*)?|-/y;
const NUMBER_STRICT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/u;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Scanner {
  private pos = 0;
  private depth = 0;
  private readonly keys: (string | number)[] = [];

  constructor(
    private readonly text: string,
    private readonly path: string,
    private readonly firstLine = 1,
    private readonly checkKeys = true,
    private readonly maxDepth = MAX_JSON_DEPTH,
  ) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail(this.pos, 'expected a JSON value, found an empty file');
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail(this.pos, `unexpected ${this.describe(this.pos)} after the end of the JSON value`);
    return value;
  }

  locate(segments: readonly string[]): Located {
    this.skipWhitespace();
    let found = 0;
    let keyStart: number | undefined;
    for (;;) {
      const start = this.pos;
      const here = (exact: boolean): Located => {
        const at: Located = { ...lineColumn(this.text, start), offset: start, pointer: toJsonPointer(segments.slice(0, found)), exact };
        if (keyStart !== undefined) at.key = { ...lineColumn(this.text, keyStart), offset: keyStart };
        return at;
      };
      if (found === segments.length) return here(true);
      const want = segments[found];
      const c = this.text.charCodeAt(start);
      if (c === 0x7b /* { */) {
        const member = this.enterMember(want ?? '');
        if (member !== undefined) {
          keyStart = member;
          found++;
          continue;
        }
      }
      if (c === 0x5b /* [ */ && want !== undefined && /^(?:0|[1-9][0-9]*)$/u.test(want) && this.enterElement(Number(want))) {
        keyStart = undefined;
        found++;
        continue;
      }
      return here(false);
    }
  }

  /** At `{`: advance to the value of member `key` and return where its name starts, or undefined if absent. */
  private enterMember(key: string): number | undefined {
    this.pos++;
    this.skipWhitespace();
    if (this.peek() === 0x7d) return undefined;
    for (;;) {
      if (this.peek() !== 0x22) this.fail(this.pos, 'expected a property name');
      const nameStart = this.pos;
      const name = this.parseString();
      this.skipWhitespace();
      this.expect(0x3a, "':'");
      this.skipWhitespace();
      if (name === key) return nameStart;
      this.parseValue();
      this.skipWhitespace();
      if (this.peek() === 0x2c) {
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      return undefined;
    }
  }

  /** At `[`: advance to element `index` and return true, or return false if the array is shorter. */
  private enterElement(index: number): boolean {
    this.pos++;
    this.skipWhitespace();
    if (this.peek() === 0x5d) return false;
    for (let i = 0; ; i++) {
      if (i === index) return true;
      this.parseValue();
      this.skipWhitespace();
      if (this.peek() !== 0x2c) return false;
      this.pos++;
      this.skipWhitespace();
    }
  }

  private parseValue(): unknown {
    this.skipWhitespace();
    const c = this.peek();
    switch (c) {
      case 0x7b:
        return this.parseObject();
      case 0x5b:
        return this.parseArray();
      case 0x22:
        return this.parseString();
      case 0x74:
        return this.parseLiteral('true', true);
      case 0x66:
        return this.parseLiteral('false', false);
      case 0x6e:
        return this.parseLiteral('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        return this.fail(this.pos, `expected a JSON value, found ${this.describe(this.pos)}`);
    }
  }

  private parseObject(): Record<string, unknown> {
    const open = this.pos;
    this.enter(open);
    this.pos++;
    const out: Record<string, unknown> = {};
    this.skipWhitespace();
    if (this.peek() === 0x7d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      const keyStart = this.pos;
      const c = this.peek();
      if (c !== 0x22) {
        if (c === 0x7d) this.fail(this.pos, "trailing comma before '}' (JSON does not allow it)");
        if (Number.isNaN(c)) this.fail(open, "unclosed object: '{' is never closed");
        this.fail(this.pos, `expected a property name in double quotes, found ${this.describe(this.pos)}`);
      }
      const key = this.parseString();
      if (this.checkKeys && FORBIDDEN_KEYS.has(key)) {
        throw new UnsafeInputError(this.path, key, { ...lineColumn(this.text, keyStart, this.firstLine), pointer: toJsonPointer([...this.keys, key]) });
      }
      this.skipWhitespace();
      this.expect(0x3a, `':' after the property name "${key}"`);
      this.keys.push(key);
      out[key] = this.parseValue();
      this.keys.pop();
      this.skipWhitespace();
      const next = this.peek();
      if (next === 0x2c) {
        this.pos++;
        continue;
      }
      if (next === 0x7d) {
        this.pos++;
        this.depth--;
        return out;
      }
      if (Number.isNaN(next)) this.fail(open, "unclosed object: '{' is never closed");
      this.fail(this.pos, `expected ',' or '}' after a property value, found ${this.describe(this.pos)}`);
    }
  }

  private parseArray(): unknown[] {
    const open = this.pos;
    this.enter(open);
    this.pos++;
    const out: unknown[] = [];
    this.skipWhitespace();
    if (this.peek() === 0x5d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.peek() === 0x5d) this.fail(this.pos, "trailing comma before ']' (JSON does not allow it)");
      this.keys.push(out.length);
      out.push(this.parseValue());
      this.keys.pop();
      this.skipWhitespace();
      const next = this.peek();
      if (next === 0x2c) {
        this.pos++;
        continue;
      }
      if (next === 0x5d) {
        this.pos++;
        this.depth--;
        return out;
      }
      if (Number.isNaN(next)) this.fail(open, "unclosed array: '[' is never closed");
      this.fail(this.pos, `expected ',' or ']' after an array element, found ${this.describe(this.pos)}`);
    }
  }

  private parseString(): string {
    const open = this.pos;
    const text = this.text;
    let i = open + 1;
    let chunk = i;
    let out = '';
    for (;;) {
      if (i >= text.length) this.fail(open, 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return out + text.slice(chunk, i);
      }
      if (c === 0x5c) {
        out += text.slice(chunk, i);
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/u.test(hex)) this.fail(i, 'invalid \\u escape: expected four hex digits');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && e in ESCAPES) {
          out += ESCAPES[e];
          i += 2;
        } else {
          this.fail(i, e === undefined ? 'unterminated string' : `invalid escape '\\${e}' in a string`);
        }
        chunk = i;
        continue;
      }
      if (c < 0x20) {
        if (c === 0x0a || c === 0x0d) this.fail(open, 'unterminated string (a line break inside a string must be written \\n)');
        this.fail(i, `control character U+${c.toString(16).padStart(4, '0').toUpperCase()} in a string must be escaped`);
      }
      i++;
    }
  }

  private parseNumber(): number {
    const start = this.pos;
    NUMBER_LOOSE.lastIndex = start;
    const match = NUMBER_LOOSE.exec(this.text);
    const raw = match?.[0] ?? '';
    if (!NUMBER_STRICT.test(raw)) this.fail(start, `invalid number '${raw}'`);
    this.pos = start + raw.length;
    return Number(raw);
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) {
      const got = /^[A-Za-z0-9_$]+/u.exec(this.text.slice(this.pos, this.pos + 20))?.[0] ?? this.text[this.pos] ?? '';
      this.fail(this.pos, `expected a JSON value, found '${got}'`);
    }
    this.pos += word.length;
    return value;
  }

  private enter(at: number): void {
    this.depth++;
    if (this.depth > this.maxDepth) this.fail(at, `nesting deeper than ${this.maxDepth} levels`);
  }

  private expect(code: number, what: string): void {
    if (this.peek() !== code) this.fail(this.pos, `expected ${what}, found ${this.describe(this.pos)}`);
    this.pos++;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.pos = i;
  }

  private peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  private describe(at: number): string {
    if (at >= this.text.length) return 'the end of the file';
    const cp = this.text.codePointAt(at) ?? 0;
    if (cp < 0x20 || cp === 0x7f) return `control character U+${cp.toString(16).padStart(4, '0').toUpperCase()}`;
    return `'${String.fromCodePoint(cp)}'`;
  }

  private fail(at: number, reason: string): never {
    throw new JsonParseError(this.path, reason, lineColumn(this.text, at, this.firstLine));
  }
}
