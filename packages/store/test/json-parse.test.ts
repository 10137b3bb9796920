import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonParseError, UnsafeInputError, lineColumn, locate, parseJson, parseJsonPointer, toJsonPointer } from '../src/index.js';

function parseError(text: string): JsonParseError {
  try {
    parseJson(text, { path: 'f.json' });
  } catch (err) {
    if (err instanceof JsonParseError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${text}`);
}

function unsafe(text: string): UnsafeInputError {
  try {
    parseJson(text, { path: 'f.json' });
  } catch (err) {
    if (err instanceof UnsafeInputError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${text}`);
}

describe('parseJson', () => {
  it('parses valid JSON, with a BOM and CRLF line ends', () => {
    expect(parseJson('\uFEFF{\r\n  "a": [1, 2.5e3, "x"],\r\n  "b": null\r\n}\r\n')).toEqual({ a: [1, 2500, 'x'], b: null });
  });

  it.each([
    ['truncated file', '{\n  "a": 1,\n  "b": [1, 2', 3, 8, /unclosed array/],
    ['truncated object', '{\n  "a": 1', 1, 1, /unclosed object/],
    ['trailing comma', '{\n  "a": 1,\n}', 3, 1, /trailing comma/],
    ['missing comma', '{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected ',' or '}'/],
    ['single quotes', "{'a': 1}", 1, 2, /property name in double quotes/],
    ['bad literal', '[tru]', 1, 2, /found 'tru'/],
    ['leading zero', '[01]', 1, 2, /invalid number '01'/],
    ['empty file', '  \n', 2, 1, /empty file/],
    ['garbage after value', '{}\n}', 2, 1, /after the end of the JSON value/],
    ['unterminated string', '{"a": "abc', 1, 7, /unterminated string/],
    ['bad escape', '["\\x"]', 1, 3, /invalid escape/],
    ['raw tab in string', '["a\tb"]', 1, 4, /control character U\+0009/],
    ['CRLF lines', '{\r\n"a": 1,\r\n"b": }', 3, 6, /expected a JSON value, found '}'/],
  ])('%s: reports line and column', (_name, text, line, column, message) => {
    const err = parseError(text);
    expect(err.code).toBe('parse-error');
    expect(err.path).toBe('f.json');
    expect({ line: err.line, column: err.column }).toEqual({ line, column });
    expect(err.reason).toMatch(message);
    expect(err.message).toContain(`f.json: `);
    expect(err.message).toContain(`(line ${line}, column ${column})`);
  });

  it('counts the BOM out of columns and honours firstLine', () => {
    const err = parseError('\uFEFF{"a" 1}');
    expect({ line: err.line, column: err.column }).toEqual({ line: 1, column: 6 });
    try {
      parseJson('{"a":}', { path: 'log.jsonl', firstLine: 7 });
    } catch (e) {
      expect(e).toMatchObject({ line: 7, column: 6 });
    }
  });

  it.each([
    ['__proto__', '{\n  "a": {\n    "__proto__": {"polluted": true}\n  }\n}', 3, 5, '/a/__proto__'],
    ['constructor', '[{"constructor": 1}]', 1, 3, '/0/constructor'],
    ['prototype', '{"x": [0, {"prototype": {}}]}', 1, 12, '/x/1/prototype'],
    ['escaped __proto__', '{"\\u005f_proto__": 1}', 1, 2, '/__proto__'],
    ['escaped constructor', '{"a": {"\\u0063onstructor": 1}}', 1, 8, '/a/constructor'],
  ])('refuses a %s key with its place', (key, text, line, column, pointer) => {
    const err = unsafe(text);
    expect(err.code).toBe('unsafe-input');
    expect(err.key).toBe(key.replace('escaped ', ''));
    expect({ line: err.line, column: err.column, pointer: err.pointer }).toEqual({ line, column, pointer });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('allows those words as values and inside longer keys', () => {
    expect(parseJson('{"name": "__proto__", "constructors": ["prototype"], "a\\u0041": 1}')).toEqual({
      name: '__proto__',
      constructors: ['prototype'],
      aA: 1,
    });
  });

  it('reports an unsafe key even when the text is also malformed', () => {
    expect(unsafe('{"__proto__": 1,').code).toBe('unsafe-input');
  });

  it('agrees with JSON.parse on any JSON value, compact or indented (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const hasForbidden = /"(?:__proto__|constructor|prototype)":/u.test(text);
        if (hasForbidden) expect(() => parseJson(text)).toThrow(UnsafeInputError);
        else expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('fails exactly when JSON.parse fails, always with a place inside the text (property)', () => {
    const jsonish = fc.stringMatching(/^[{}[\]",:0-9a-z .\-+eE\\\n\r\t]{0,40}$/u);
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.jsonValue().map((v) => JSON.stringify(v)).chain((s) => fc.nat(s.length).map((n) => s.slice(0, n)))), (text) => {
        let expected = true;
        try {
          JSON.parse(text);
        } catch {
          expected = false;
        }
        try {
          parseJson(text);
          expect(expected).toBe(true);
        } catch (err) {
          if (err instanceof UnsafeInputError) return;
          expect(err).toBeInstanceOf(JsonParseError);
          expect(expected).toBe(false);
          const e = err as JsonParseError;
          const lines = text.split(/\r\n|\n|\r/u);
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(lines.length);
          expect(e.column).toBeGreaterThanOrEqual(1);
          expect(e.column).toBeLessThanOrEqual((lines[e.line - 1] ?? '').length + 1);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports nesting that only the fallback parser would overflow on as a parse error', () => {
    const deep = `${'['.repeat(5000)}x${']'.repeat(5000)}`;
    expect(parseError(deep).reason).toMatch(/nesting deeper than/);
  });
});

describe('locate', () => {
  const text = '{\n  "name": "demo",\n  "states": [\n    { "id": "a" },\n    { "id": "b/c", "~": 1 }\n  ]\n}\n';

  it('finds values by JSON pointer, with ~0 and ~1 escapes', () => {
    expect(locate(text, '')).toMatchObject({ line: 1, column: 1, exact: true });
    expect(locate(text, '/name')).toMatchObject({ line: 2, column: 11, exact: true });
    expect(locate(text, '/states/1')).toMatchObject({ line: 5, column: 5 });
    expect(locate(text, '/states/1/id')).toMatchObject({ line: 5, column: 13 });
    expect(locate(text, '/states/1/~0')).toMatchObject({ line: 5, column: 25, key: { line: 5, column: 20 } });
    expect(locate(text, '/states/1')?.key).toBeUndefined();
  });

  it('falls back to the deepest existing ancestor', () => {
    expect(locate(text, '/states/0/missing')).toEqual({ line: 4, column: 5, offset: text.indexOf('{ "id": "a"'), pointer: '/states/0', exact: false });
    expect(locate(text, '/states/9')).toMatchObject({ line: 3, column: 13, pointer: '/states', exact: false });
    expect(locate(text, '/name/deeper')).toMatchObject({ line: 2, pointer: '/name', exact: false });
  });

  it('returns undefined for malformed text or a malformed pointer', () => {
    expect(locate('{"a" 1}', '/a')).toBeUndefined();
    expect(locate(text, 'name')).toBeUndefined();
  });

  it('points at the value of every member of any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const doc = JSON.stringify(value, null, 2);
        const walk = (v: unknown, path: (string | number)[]): void => {
          const at = locate(doc, toJsonPointer(path));
          expect(at?.exact).toBe(true);
          const expected = JSON.stringify(v) ?? '';
          expect(doc.slice(at?.offset ?? -1, (at?.offset ?? 0) + 1)).toBe(expected.slice(0, 1));
          if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
          else if (typeof v === 'object' && v !== null) for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
        };
        walk(value, []);
      }),
      { numRuns: 150 },
    );
  });
});

describe('JSON pointers and positions', () => {
  it('round-trips pointers', () => {
    expect(toJsonPointer(['a', 0, 'b/c', 'd~e'])).toBe('/a/0/b~1c/d~0e');
    expect(parseJsonPointer('/a/0/b~1c/d~0e')).toEqual(['a', '0', 'b/c', 'd~e']);
    expect(parseJsonPointer('')).toEqual([]);
    expect(parseJsonPointer('a')).toBeUndefined();
  });

  it('counts LF, CRLF and lone CR as line ends', () => {
    expect(lineColumn('a\nb\r\nc\rd', 7)).toEqual({ line: 4, column: 1 });
    expect(lineColumn('abc', 2)).toEqual({ line: 1, column: 3 });
  });
});
