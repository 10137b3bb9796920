import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BinaryFileError, JsonParseError, UnsafeInputError, ValidationError, openJsonl } from '../src/index.js';
import { tempDir } from './support/children.js';

const Lesson = z.strictObject({ id: z.string(), n: z.number().int() });
const file = (): string => join(tempDir(), 'lessons.jsonl');

describe('openJsonl', () => {
  it('reads [] for a missing file and appends records one per line', async () => {
    const path = file();
    const log = openJsonl(path, { schema: Lesson });
    expect(log.path).toBe(path);
    expect(await log.read()).toEqual([]);
    await log.append([{ id: 'a', n: 1 }]);
    await log.append([
      { id: 'b', n: 2 },
      { id: 'c', n: 3 },
    ]);
    await log.append([]);
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a","n":1}\n{"id":"b","n":2}\n{"id":"c","n":3}\n');
    expect(await log.read()).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'c', n: 3 },
    ]);
    expect(readdirSync(dirname(path))).toEqual(['lessons.jsonl']);
  });

  it('keeps existing lines byte for byte (CRLF, blank lines, BOM-less rewrite) and ends an unterminated last line', async () => {
    const path = file();
    writeFileSync(path, '{"id":"a", "n":1}\r\n\r\n{ "id": "b", "n": 2 }');
    const log = openJsonl(path, { schema: Lesson });
    expect(await log.read()).toHaveLength(2);
    await log.append([{ id: 'c', n: 3 }]);
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a", "n":1}\r\n\r\n{ "id": "b", "n": 2 }\n{"id":"c","n":3}\n');
  });

  it('reports a malformed line by its line number and never appends to it', async () => {
    const path = file();
    writeFileSync(path, '{"id":"a","n":1}\n\n{"id":"b","n":2\n{"id":"c","n":3}\n');
    const before = readFileSync(path);
    const log = openJsonl(path, { schema: Lesson });
    const err = await log.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonParseError);
    expect(err).toMatchObject({ path, line: 3, column: 1 });
    await expect(log.append([{ id: 'd', n: 4 }])).rejects.toBeInstanceOf(JsonParseError);
    await expect(log.rewrite(() => [])).rejects.toBeInstanceOf(JsonParseError);
    expect(readFileSync(path)).toEqual(before);
    expect(readdirSync(dirname(path))).toEqual(['lessons.jsonl']);
  });

  it('reports invalid records with line, column and pointer, all of them', async () => {
    const path = file();
    writeFileSync(path, '{"id":"a","n":1}\n{"id":"b","n":"two"}\n{"id":"c","n":3,"x":0}\n');
    const before = readFileSync(path);
    const log = openJsonl(path, { schema: Lesson });
    const err = (await log.read().catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues.map(({ pointer, line, column }) => ({ pointer, line, column }))).toEqual([
      { pointer: '/n', line: 2, column: 15 },
      { pointer: '/x', line: 3, column: 17 },
    ]);
    expect(err.message).toContain('(line 2, column 15, at /n)');
    await expect(log.append([{ id: 'd', n: 4 }])).rejects.toBeInstanceOf(ValidationError);
    expect(readFileSync(path)).toEqual(before);
  });

  it('refuses unsafe keys and binary files with their place', async () => {
    const path = file();
    writeFileSync(path, '{"id":"a","n":1}\n{"id":"b","n":2,"__proto__":{}}\n');
    const err = await openJsonl(path, { schema: Lesson })
      .read()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeInputError);
    expect(err).toMatchObject({ line: 2, column: 17, pointer: '/__proto__' });
    writeFileSync(path, '{"id":"a","n":1}\n\0\n');
    await expect(openJsonl(path, { schema: Lesson }).append([{ id: 'x', n: 0 }])).rejects.toBeInstanceOf(BinaryFileError);
  });

  it('validates appended records before taking the lock, writing nothing if one is bad', async () => {
    const path = file();
    const log = openJsonl(path, { schema: Lesson });
    await log.append([{ id: 'a', n: 1 }]);
    const err = await log.append([{ id: 'b', n: 2 }, { id: 'c', n: 2.5 }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ source: 'update', pointer: '/n' });
    expect((err as Error).message).toContain('(record 1)');
    expect(readFileSync(path, 'utf8')).toBe('{"id":"a","n":1}\n');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('rewrites under the lock, by mutation or by returning a new array', async () => {
    const log = openJsonl(file(), { schema: Lesson });
    await log.append([1, 2, 3, 4].map((n) => ({ id: `l${n}`, n })));
    expect(await log.rewrite((records) => records.filter((r) => r.n % 2 === 0))).toEqual([
      { id: 'l2', n: 2 },
      { id: 'l4', n: 4 },
    ]);
    await log.rewrite((records) => {
      records.push({ id: 'l6', n: 6 });
    });
    expect((await log.read()).map((r) => r.n)).toEqual([2, 4, 6]);
    await log.rewrite(() => []);
    expect(readFileSync(log.path, 'utf8')).toBe('');
    expect(await log.read()).toEqual([]);
  });

  it('loses no record under concurrent in-process appends', async () => {
    const log = openJsonl(file(), { schema: Lesson });
    await Promise.all(Array.from({ length: 30 }, (_, n) => log.append([{ id: `r${n}`, n }])));
    const ns = (await log.read()).map((r) => r.n).sort((a, b) => a - b);
    expect(ns).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });
});
