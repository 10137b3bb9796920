import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type {
  StoreError} from '../src/index.js';
import {
  BinaryFileError,
  FileTooLargeError,
  JsonParseError,
  NotFoundError,
  SchemaVersionError,
  UnsafeInputError,
  ValidationError,
  defineDocument,
  openDocument,
  type Migration,
} from '../src/index.js';
import { deadPid, tempDir } from './support/children.js';

const Counter = z.object({ count: z.number().int().nonnegative() });
const counter = defineDocument({ schema: Counter, version: 1, initial: { count: 0 } });

const Catalog = z.strictObject({
  title: z.string(),
  items: z.array(z.strictObject({ name: z.string(), qty: z.number().int() })),
});
const SCHEMA_URL = 'https://ratchet.dev/schemas/catalog.schema.json';
const catalog = defineDocument({ schema: Catalog, version: 2, $schema: SCHEMA_URL, initial: { title: 'new', items: [] }, migrations: { 1: (d) => ({ ...d, items: d.items ?? [] }) } });

const file = (name = 'doc.json'): string => join(tempDir(), name);

describe('openDocument: reading and writing', () => {
  it('reads the initial value for a missing file without creating it', async () => {
    const path = file();
    const doc = openDocument(path, counter);
    expect(doc.path).toBe(path);
    expect(await doc.read()).toEqual({ count: 0 });
    expect(doc.readSync()).toEqual({ count: 0 });
    expect(existsSync(path)).toBe(false);
  });

  it('readSync returns what read returns: the stored value, migrated and validated', async () => {
    const path = file();
    writeFileSync(path, '\uFEFF{\r\n  "schemaVersion": 1,\r\n  "title": "old"\r\n}\r\n');
    const doc = openDocument(path, catalog);
    expect(doc.readSync()).toEqual({ title: 'old', items: [] });
    expect(doc.readSync()).toEqual(await doc.read());
    await doc.update((d) => void d.items.push({ name: 'nut', qty: 1 }));
    expect(doc.readSync()).toEqual({ title: 'old', items: [{ name: 'nut', qty: 1 }] });
  });

  it('writes $schema and schemaVersion first, formatted, and nothing but its digest record and a copy beside the file', async () => {
    const path = file();
    const doc = openDocument(path, catalog);
    const result = await doc.update((draft) => {
      draft.items.push({ name: 'bolt', qty: 3 });
    });
    expect(result).toEqual({ title: 'new', items: [{ name: 'bolt', qty: 3 }] });
    expect(readFileSync(path, 'utf8')).toBe(
      `{\n  "$schema": "${SCHEMA_URL}",\n  "schemaVersion": 2,\n  "title": "new",\n  "items": [\n    {\n      "name": "bolt",\n      "qty": 3\n    }\n  ]\n}\n`,
    );
    expect(readdirSync(dirname(path)).sort()).toEqual(['doc.json', 'doc.json.digest', 'doc.json.prev']);
    expect(await doc.read()).toEqual(result);
  });

  it('accepts a returned value instead of a mutated draft, and async callbacks', async () => {
    const doc = openDocument(file(), counter);
    expect(await doc.update(async (d) => Promise.resolve({ count: d.count + 5 }))).toEqual({ count: 5 });
    expect(await doc.update((d) => ({ count: d.count * 2 }))).toEqual({ count: 10 });
  });

  it('loses nothing under concurrent in-process updates', async () => {
    const doc = openDocument(file(), counter);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        doc.update((d) => {
          d.count++;
        }),
      ),
    );
    expect(await doc.read()).toEqual({ count: 40 });
  });

  it('reads files with a BOM and CRLF line ends, and rewrites them plainly', async () => {
    const path = file();
    writeFileSync(path, '\uFEFF{\r\n  "schemaVersion": 1,\r\n  "count": 4\r\n}\r\n');
    const doc = openDocument(path, counter);
    expect(await doc.read()).toEqual({ count: 4 });
    await doc.update((d) => {
      d.count++;
    });
    expect(readFileSync(path, 'utf8')).toBe('{\n  "schemaVersion": 1,\n  "count": 5\n}\n');
  });

  it('leaves the file untouched when the callback throws, and releases the lock', async () => {
    const path = file();
    const doc = openDocument(path, counter);
    await doc.update((d) => {
      d.count = 1;
    });
    const before = readFileSync(path);
    await expect(
      doc.update((d) => {
        d.count = 99;
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(readFileSync(path)).toEqual(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(await doc.update((d) => ({ count: d.count + 1 }))).toEqual({ count: 2 });
  });

  it('refuses to write an invalid value and says where', async () => {
    const path = file();
    const doc = openDocument(path, catalog);
    await doc.update(() => undefined);
    const before = readFileSync(path);
    const err = await doc
      .update((d) => {
        d.items.push({ name: 'x', qty: 1.5 });
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ code: 'validation-error', source: 'update', pointer: '/items/0/qty', path });
    expect((err as Error).message).toMatch(/^.*: refused to write an invalid value, nothing was written: .*\(at \/items\/0\/qty\)$/u);
    expect(readFileSync(path)).toEqual(before);
  });

  it('refuses a missing directory clearly, and creates it when asked', async () => {
    const dir = tempDir();
    const path = join(dir, 'state', 'doc.json');
    const err = await openDocument(path, counter)
      .update((d) => d)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(`${path}: cannot lock: the directory ${join(dir, 'state')} does not exist`);
    expect(readdirSync(dir)).toEqual([]);
    await openDocument(path, counter, { createParentDirs: true }).update((d) => d);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ schemaVersion: 1, count: 0 });
  });

  it('deletes what killed writers left beside the file, and only that', async () => {
    const path = file();
    const dir = dirname(path);
    const leftovers = ['.doc.json.4242.0123456789ab.tmp', '.doc.json.lock.4242.0123456789ab.tmp', '.doc.json.lock.break-abc.4242.0123456789ab.tmp', '.doc.json.digest.4242.0123456789ab.tmp', '.doc.json.prev.4242.0123456789ab.tmp'];
    for (const name of leftovers) writeFileSync(join(dir, name), 'partial');
    const staleGuard = `doc.json.lock.break-${randomBytes(16).toString('hex')}`;
    writeFileSync(join(dir, staleGuard), JSON.stringify({ pid: deadPid(), host: hostname(), time: new Date().toISOString(), token: randomBytes(16).toString('hex') }));
    const unrelated = ['.other.json.4242.0123456789ab.tmp', 'doc.json.bak', '.doc.json.notes'];
    for (const name of unrelated) writeFileSync(join(dir, name), 'keep');
    await openDocument(path, counter).update((d) => d);
    expect(readdirSync(dir).sort()).toEqual(['doc.json', 'doc.json.digest', 'doc.json.prev', ...unrelated].sort());
  });

  it('rejects definitions that cannot work', () => {
    expect(() => defineDocument({ schema: Counter, version: 0, initial: { count: 0 } })).toThrow(RangeError);
    expect(() => defineDocument({ schema: Counter, version: 2, initial: { count: 0 }, migrations: { 2: (d) => d } })).toThrow(RangeError);
    expect(() => defineDocument({ schema: Counter, version: 1, initial: [] as unknown as { count: number } })).toThrow(TypeError);
  });
});

describe('openDocument: a bad file is reported and never overwritten', () => {
  const cases: { name: string; content: string | Buffer; error: new (...args: never[]) => StoreError; place: Record<string, unknown>; maxBytes?: number }[] = [
    { name: 'truncated JSON', content: '{\n  "schemaVersion": 1,\n  "count": 1', error: JsonParseError, place: { code: 'parse-error', line: 1, column: 1 } },
    { name: 'a trailing comma', content: '{\n  "schemaVersion": 1,\n  "count": 1,\n}\n', error: JsonParseError, place: { line: 4, column: 1 } },
    { name: 'binary content', content: Buffer.from([0x7b, 0x00, 0x01, 0x7d]), error: BinaryFileError, place: { code: 'binary-file', line: 1, column: 2 } },
    { name: 'invalid UTF-8', content: Buffer.from([0x7b, 0xff, 0x7d]), error: BinaryFileError, place: { line: 1, column: 2 } },
    { name: 'an oversized file', content: `{"schemaVersion": 1, "count": 1, "pad": "${'x'.repeat(200)}"}`, maxBytes: 100, error: FileTooLargeError, place: { code: 'file-too-large' } },
    { name: 'a __proto__ key', content: '{\n  "schemaVersion": 1,\n  "count": 1,\n  "__proto__": {"admin": true}\n}', error: UnsafeInputError, place: { code: 'unsafe-input', line: 4, column: 3, pointer: '/__proto__' } },
    { name: 'a schema violation', content: '{\n  "schemaVersion": 1,\n  "count": -3\n}', error: ValidationError, place: { code: 'validation-error', source: 'file', pointer: '/count', line: 3, column: 12 } },
    { name: 'a non-object root', content: '[1, 2]', error: ValidationError, place: { pointer: '', line: 1, column: 1 } },
    { name: 'a missing schemaVersion', content: '{"count": 1}', error: SchemaVersionError, place: { code: 'schema-version', line: 1, column: 1 } },
    { name: 'a malformed schemaVersion', content: '{"schemaVersion": "1", "count": 1}', error: SchemaVersionError, place: { pointer: '/schemaVersion', line: 1, column: 19 } },
    { name: 'a $schema that is not a string', content: '{\n  "$schema": 42,\n  "schemaVersion": 1,\n  "count": 1\n}', error: ValidationError, place: { code: 'validation-error', pointer: '/$schema', line: 2, column: 14 } },
    { name: 'a newer schemaVersion', content: '{\n  "schemaVersion": 3,\n  "count": 1\n}', error: SchemaVersionError, place: { found: 3, supported: 1, line: 2, column: 20 } },
  ];

  it.each(cases)('$name', async ({ content, error, place, maxBytes }) => {
    const path = file();
    writeFileSync(path, content);
    const before = readFileSync(path);
    const doc = openDocument(path, counter, maxBytes === undefined ? {} : { maxBytes });
    const readError = await doc.read().catch((e: unknown) => e);
    expect(readError).toBeInstanceOf(error);
    expect(readError).toMatchObject({ path, ...place });
    let syncError: unknown;
    try {
      doc.readSync();
    } catch (e) {
      syncError = e;
    }
    expect(syncError).toBeInstanceOf(error);
    expect(syncError).toMatchObject({ path, ...place });
    expect((readError as Error).message.startsWith(`${path}: `)).toBe(true);
    const updateError = await doc
      .update((d) => {
        d.count = 1000;
      })
      .catch((e: unknown) => e);
    expect(updateError).toBeInstanceOf(error);
    expect(readFileSync(path)).toEqual(before);
    expect(readdirSync(dirname(path))).toEqual(['doc.json']);
  });

  it('says plainly that a newer version wrote the file', async () => {
    const path = file();
    writeFileSync(path, '{"schemaVersion": 3, "count": 1}');
    await expect(openDocument(path, defineDocument({ schema: Counter, version: 2, initial: { count: 0 }, migrations: { 1: (d) => d } })).read()).rejects.toThrow(
      `${path}: written by a newer version: schemaVersion 3, this reader supports up to 2; upgrade Ratchet (the package that owns this file) to read or change it (line 1, column 19, at /schemaVersion)`,
    );
  });

  it('lists every schema problem with its pointer and place', async () => {
    const path = file();
    writeFileSync(path, '{\n  "schemaVersion": 2,\n  "title": "t",\n  "items": [\n    {"name": "a", "qty": 1},\n    {"name": 7, "qty": 1, "colour": "red"}\n  ]\n}\n');
    const err = (await openDocument(path, catalog)
      .read()
      .catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues.map(({ pointer, line, column, code }) => ({ pointer, line, column, code }))).toEqual([
      { pointer: '/items/1/name', line: 6, column: 14, code: 'invalid_type' },
      { pointer: '/items/1/colour', line: 6, column: 27, code: 'unrecognized_keys' },
    ]);
    expect(err.message).toContain('(and 1 more problem)');
    expect(err.message).toContain('(line 6, column 14, at /items/1/name)');
  });
});

describe('openDocument: schema versions and migrations', () => {
  const V3 = z.strictObject({ title: z.string(), tags: z.array(z.string()), owner: z.string() });
  type V3 = z.infer<typeof V3>;

  function definition(calls: string[]) {
    const migrations: Record<number, Migration> = {
      1: (d) => {
        calls.push('1->2');
        const { name, ...rest } = d;
        return { ...rest, title: name };
      },
      2: (d) => {
        calls.push('2->3');
        return { ...d, tags: [], owner: typeof d.title === 'string' ? `owner of ${d.title}` : '?' };
      },
    };
    return defineDocument<V3>({ schema: V3, version: 3, migrations, initial: { title: '', tags: [], owner: '' } });
  }

  it('migrates in order in memory on read, and persists on the next update', async () => {
    const path = file();
    writeFileSync(path, '{"schemaVersion": 1, "name": "alpha"}\n');
    const calls: string[] = [];
    const doc = openDocument(path, definition(calls));
    expect(await doc.read()).toEqual({ title: 'alpha', tags: [], owner: 'owner of alpha' });
    expect(calls).toEqual(['1->2', '2->3']);
    expect(readFileSync(path, 'utf8')).toBe('{"schemaVersion": 1, "name": "alpha"}\n');
    await doc.update((d) => {
      d.tags.push('migrated');
    });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ schemaVersion: 3, title: 'alpha', tags: ['migrated'], owner: 'owner of alpha' });
    calls.length = 0;
    await doc.read();
    expect(calls).toEqual([]);
  });

  it('starts from the right step for a file in between', async () => {
    const path = file();
    writeFileSync(path, '{"schemaVersion": 2, "title": "beta"}');
    const calls: string[] = [];
    expect(await openDocument(path, definition(calls)).read()).toMatchObject({ title: 'beta' });
    expect(calls).toEqual(['2->3']);
  });

  it('reports a missing, failing or wrong migration without touching the file', async () => {
    const path = file();
    writeFileSync(path, '{"schemaVersion": 1, "title": "t"}');
    const noStep = defineDocument({ schema: Counter, version: 2, initial: { count: 0 } });
    await expect(openDocument(path, noStep).update((d) => d)).rejects.toThrow(/schemaVersion 1 is too old: there is no migration from 1 to 2/u);
    const failing = defineDocument({
      schema: Counter,
      version: 2,
      initial: { count: 0 },
      migrations: {
        1: () => {
          throw new Error('bad data');
        },
      },
    });
    await expect(openDocument(path, failing).read()).rejects.toThrow(/migrating from schemaVersion 1 to 2 failed: bad data/u);
    const wrong = defineDocument({ schema: Counter, version: 2, initial: { count: 0 }, migrations: { 1: (d) => d } });
    const err = await openDocument(path, wrong)
      .update((d) => d)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain('invalid content after migrating from schemaVersion 1');
    expect(readFileSync(path, 'utf8')).toBe('{"schemaVersion": 1, "title": "t"}');
  });
});
