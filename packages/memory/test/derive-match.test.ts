import { describe, expect, test } from 'vitest';
import { checkRegex } from '../src/index.js';
import { deriveMatch } from '../src/derive-match.js';

describe('deriveMatch: a safe regex from an error message, volatile parts generalised', () => {
  const cases: [string, string, string][] = [
    // [message, the same failure elsewhere (must match), another failure (must not)]
    ["ModuleNotFoundError: No module named 'requests'", "ModuleNotFoundError: No module named 'numpy'", 'ModuleNotFoundError: something else'],
    ['TS2307: Cannot find module /home/ci/app/src/utils.ts', 'TS2307: Cannot find module ./lib/other.ts', 'TS2345: Argument of type'],
    ['fatal: reference is not a tree: 3fa9c2e1b7', 'fatal: reference is not a tree: 0badc0ffee12', 'fatal: not a git repository'],
    ['Error: connect ECONNREFUSED 127.0.0.1:5432', 'Error: connect ECONNREFUSED 10.0.0.7:6543', 'Error: connect ETIMEDOUT 10.0.0.7:6543'],
    ['Segmentation fault at 0x7ffe1234 in worker 12', 'Segmentation fault at 0xdeadbeef in worker 3', 'Bus error at 0x7ffe1234'],
  ];
  test.each(cases)('%s', (message, same, other) => {
    const source = deriveMatch(message)!;
    expect(source).toBeDefined();
    expect(checkRegex(source).safe).toBe(true);
    const re = new RegExp(source, 'i');
    expect(re.test(message)).toBe(true);
    expect(re.test(same)).toBe(true);
    expect(re.test(other)).toBe(false);
  });

  test('regex metacharacters are escaped, not run', () => {
    const source = deriveMatch('Unexpected token (a+)+$ in [config].json? {x}|y')!;
    expect(new RegExp(source).test('Unexpected token (a+)+$ in [config].json? {x}|y')).toBe(true);
    expect(new RegExp(source).test('Unexpected token aaaa in c.json')).toBe(false);
  });

  test('too little literal text, empty, binary, CRLF and huge input: no regex or a safe one', () => {
    expect(deriveMatch('1 2 3')).toBeUndefined();
    expect(deriveMatch('')).toBeUndefined();
    expect(deriveMatch('/a/b/c 0x12 42')).toBeUndefined();
    const crlf = deriveMatch('Error: boom happened here\r\nsecond line')!;
    expect(crlf).toBe('Error: boom happened here');
    for (const hostile of ['\u0000\u0001\uFFFD binary junk here \u0007', 'x'.repeat(100_000), '"'.repeat(500), `${'((('.repeat(50)}error`, '\uFEFFError: with a BOM in front']) {
      const source = deriveMatch(hostile);
      if (source !== undefined) expect(checkRegex(source).safe).toBe(true);
    }
  });
});
