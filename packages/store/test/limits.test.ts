import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileTooLargeError, JsonParseError, MAX_JSON_DEPTH, defineDocument, openDocument, openJsonl, parseJson, readJsonFile, writeFileAtomic } from '../src/index.js';

const dir = (): string => mkdtempSync(join(tmpdir(), 'store-limits-'));
const nested = (depth: number, open = '[', close = ']'): string => `${open.repeat(depth)}1${close.repeat(depth)}`;

describe('writes are held to the limit the next read uses', () => {
  it('writeFileAtomic refuses content over maxBytes (default 16 MiB) before writing anything', async () => {
    const d = dir();
    const path = join(d, 'a.txt');
    writeFileSync(path, 'old');
    const err = await writeFileAtomic(path, 'x'.repeat(101), { maxBytes: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect((err as FileTooLargeError).write).toBe(true);
    expect((err as Error).message).toContain('the file is unchanged');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(d)).toEqual(['a.txt']); // no temp file either
    await expect(writeFileAtomic(path, Buffer.alloc(16 * 1024 * 1024 + 1, 0x61))).rejects.toBeInstanceOf(FileTooLargeError);
    await writeFileAtomic(path, 'x'.repeat(100), { maxBytes: 100 });
    expect(readFileSync(path, 'utf8')).toHaveLength(100);
  });

  it('a document update whose result would be over its maxBytes is refused; the file keeps its old value', async () => {
    const d = dir();
    const def = defineDocument({ schema: z.object({ blob: z.string() }), version: 1, initial: { blob: '' } });
    const doc = openDocument(join(d, 'doc.json'), def, { maxBytes: 1000 });
    await doc.update((x) => void (x.blob = 'small'));
    const err = await doc.update((x) => void (x.blob = 'y'.repeat(2000))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect(await doc.read()).toEqual({ blob: 'small' });
  });

  it('a JSONL append that would take the file over its maxBytes is refused; existing lines kept', async () => {
    const d = dir();
    const log = openJsonl(join(d, 'log.jsonl'), { schema: z.object({ s: z.string() }), maxBytes: 200 });
    await log.append([{ s: 'a' }]);
    await expect(log.append([{ s: 'b'.repeat(300) }])).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await log.read()).toEqual([{ s: 'a' }]);
  });
});

describe('JSON depth limit', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, at the bracket that goes too deep`, () => {
    expect(parseJson(nested(MAX_JSON_DEPTH))).toBeDefined();
    const err = (() => {
      try {
        parseJson(`{\n  "a": ${nested(MAX_JSON_DEPTH, '{"k":', '}')}\n}`, { path: 'x.json' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(JsonParseError);
    expect(err).toMatchObject({ path: 'x.json', line: 2, column: 8 + 5 * (MAX_JSON_DEPTH - 1), reason: `nesting deeper than ${MAX_JSON_DEPTH} levels` });
  });

  it('brackets inside strings (with escaped quotes) do not count', () => {
    const text = JSON.stringify({ s: `\\"${'['.repeat(1000)}`, t: '{'.repeat(1000) });
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('100,000 levels: a parse error with a place, not a stack overflow, through the file reader too', async () => {
    const d = dir();
    writeFileSync(join(d, 'deep.json'), nested(100_000));
    await expect(readJsonFile(join(d, 'deep.json'))).rejects.toMatchObject({ code: 'parse-error', line: 1, column: MAX_JSON_DEPTH + 1 });
    expect(existsSync(join(d, 'deep.json'))).toBe(true);
    expect(() => parseJson(`[${nested(50_000)}`)).toThrow(JsonParseError); // malformed and deep: the slow path stops too
    expect(parseJson(nested(300), { maxDepth: 300 })).toBeDefined();
  });
});
