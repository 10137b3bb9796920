/**
 * The edge of the memory commands that have no MCP tool (import, related, query/explain): commander's
 * option bag parsed once (src/commands/memory/inputs.ts) into typed inputs. A wrong kind or a value out
 * of range is a usage error (exit 2) naming the option, with the message these options always had.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { addFailureInput, addPatternInput, importInput, recallInput, relatedInput } from '../src/commands/memory/inputs.js';
import { numberOption } from '../src/commands/memory/shared.js';
import { inProcess, usage } from './edge-support.js';

const ratchet = (cwd: string, ...argv: string[]): ReturnType<typeof inProcess> => inProcess(cwd, argv);

const project = (): string => mkdtempSync(join(tmpdir(), 'ratchet-memory-edge-'));

describe('memory import, related, query: the parse functions', () => {
  test('defaults applied, numbers parsed, choices narrowed', () => {
    expect(relatedInput(['a'], { depth: '3', minWeight: '0.5', file: '.ratchet/memory.json' })).toEqual({ name: 'a', maxDepth: 3, minWeight: 0.5, file: '.ratchet/memory.json' });
    expect(relatedInput(['a'], {})).toEqual({ name: 'a', maxDepth: 3, minWeight: 0.5, file: undefined });
    expect(recallInput(['query', 'No', 'module'], { failures: '5', patterns: '3', threshold: '0.25', retrieval: 'bm25', record: true, tag: ['py'] })).toEqual({
      mode: 'query',
      topic: 'No module',
      failures: 5,
      patterns: 3,
      threshold: 0.25,
      tags: ['py'],
      retrieval: 'bm25',
      record: true,
      file: undefined,
    });
    expect(recallInput(['explain', 'x'], { name: 'requests-missing' })).toMatchObject({ mode: 'explain', name: 'requests-missing', retrieval: 'hybrid', failures: 5, patterns: 3, threshold: 0.25, tags: [] });
    expect(importInput(['ftl.json'], {})).toEqual({ source: 'ftl.json', file: undefined });
  });

  test('wrong kinds and bad values are usage errors naming the option, as before', () => {
    expect(usage(() => importInput([], {}))).toBe('memory import: missing <file>');
    expect(usage(() => importInput(['ftl.json'], { file: true }))).toBe('--file takes a value');
    expect(usage(() => relatedInput([], {}))).toBe('memory related: missing <name>');
    expect(usage(() => relatedInput(['a'], { depth: '0' }))).toBe('--depth must be an integer from 1 to 10, got "0"');
    expect(usage(() => relatedInput(['a'], { depth: 2 }))).toBe('--depth takes a value');
    expect(usage(() => relatedInput(['a'], { minWeight: 'heavy' }))).toBe('--min-weight must be a number >= 0, got "heavy"');
    expect(usage(() => recallInput(['query', 'x'], { retrieval: 'magic' }))).toBe('--retrieval: expected hybrid or bm25, got "magic"');
    expect(usage(() => recallInput(['query', 'x'], { retrieval: ['bm25'] }))).toBe('--retrieval: expected hybrid or bm25, got ["bm25"]');
    expect(usage(() => recallInput(['query', 'x'], { tag: 'py' }))).toBe('--tag takes a value each time it is given');
    expect(usage(() => recallInput(['explain', 'x'], { name: ['a', 'b'] }))).toBe('--name takes a value');
    expect(usage(() => recallInput(['query', 'x'], { threshold: '1.5' }))).toBe('--threshold must be a number from 0 to 1, got "1.5"');
  });

  test('add-failure and add-pattern: --cost and --saved are required numbers, never an undefined typed as one', () => {
    expect(addFailureInput([], { trigger: 't', fix: 'f', cost: '1500' }).cost).toBe(1500);
    expect(usage(() => addFailureInput([], { trigger: 't', fix: 'f' }))).toBe('--cost is required');
    expect(usage(() => addPatternInput([], { trigger: 't', insight: 'i' }))).toBe('--saved is required');
    expect(usage(() => addPatternInput([], { trigger: 't', insight: 'i', saved: '' }))).toBe('--saved must be a number >= 0, got ""');
  });

  test('hostile numbers: __proto__, huge, negative, blank, CRLF', () => {
    expect(usage(() => relatedInput(['a'], { depth: '__proto__' }))).toBe('--depth must be an integer from 1 to 10, got "__proto__"');
    expect(usage(() => relatedInput(['a'], { depth: '1e400' }))).toBe('--depth must be an integer from 1 to 10, got "1e400"');
    expect(usage(() => recallInput(['query', 'x'], { failures: '99999999999999999999' }))).toBe('--failures must be an integer from 0 to 1000, got "99999999999999999999"');
    expect(usage(() => recallInput(['query', 'x'], { patterns: '-1' }))).toBe('--patterns must be an integer from 0 to 1000, got "-1"');
    expect(usage(() => relatedInput(['a'], { minWeight: '   ' }))).toBe('--min-weight must be a number >= 0, got ""');
    expect(usage(() => relatedInput(['a'], { depth: '2\r\n3' }))).toBe('--depth must be an integer from 1 to 10, got "2\\r\\n3"');
    // Surrounding whitespace (a pasted line ending) is not part of the number.
    expect(relatedInput(['a'], { depth: '2\r\n' }).maxDepth).toBe(2);
    expect(numberOption(undefined, '--x')).toBeUndefined();
  });
});

describe('memory import, related, query: through the CLI', () => {
  test('a bad number is exit 2 naming the option, and the memory file is not created', async () => {
    const dir = project();
    for (const argv of [
      ['memory', 'related', 'a', '--depth', '11'],
      ['memory', 'related', 'a', '--min-weight', '-0.5'],
      ['memory', 'query', 'x', '--threshold', 'NaN'],
      ['memory', 'explain', 'x', '--failures', '1.5'],
      ['memory', 'query', 'x', '--retrieval', '__proto__'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(new RegExp(`--${argv[3]!.replace(/^--/, '')}`));
    }
    expect(existsSync(join(dir, '.ratchet/memory.json'))).toBe(false);
  });

  test('--file outside the project is refused (exit 2) before anything is read or written', async () => {
    const dir = project();
    writeFileSync(join(dir, 'ftl.json'), JSON.stringify({ failures: [], patterns: [] }));
    for (const argv of [
      ['memory', 'import', 'ftl.json', '--file', '../elsewhere.json'],
      ['memory', 'related', 'a', '--file', '../elsewhere.json'],
      ['memory', 'query', 'x', '--file', '../elsewhere.json'],
    ]) {
      const r = await ratchet(dir, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('--file ../elsewhere.json refused');
    }
  });

  test('valid values through the edge: import into a named file, related and query read it', async () => {
    const dir = project();
    writeFileSync(join(dir, 'ftl.json'), JSON.stringify({ failures: [{ name: 'import-error', trigger: "ModuleNotFoundError: No module named 'requests'", fix: 'pip install requests', cost: 3000 }], patterns: [] }));
    expect((await ratchet(dir, 'memory', 'import', 'ftl.json', '--file', 'mem/m.json')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'mem/m.json'), 'utf8'))).toMatchObject({ failures: [{ name: 'import-error' }] });
    const q = await ratchet(dir, '--json', 'memory', 'query', 'No module named requests', '--file', 'mem/m.json', '--failures', ' 1 ', '--retrieval', 'bm25');
    expect(q.code).toBe(0);
    expect(JSON.parse(q.out)).toMatchObject({ file: 'mem/m.json', failures: [{ name: 'import-error' }] });
    const rel = await ratchet(dir, 'memory', 'related', 'import-error', '--file', 'mem/m.json', '--depth', '10', '--min-weight', '0');
    expect(rel).toMatchObject({ code: 0, out: 'nothing related to import-error with weight >= 0\n' });
  });
});
