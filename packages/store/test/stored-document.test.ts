/**
 * openStoredDocument: the Document<T> of openDocument on any backend. Each behaviour runs twice: on
 * the file backend (where it is openDocument on <root>/<key>) and through the generic path, using a
 * backend that only forwards to the port's operations (as a database backend would be used).
 */
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaVersionError, ValidationError, createFileBackend, defineDocument, openDocument, openStoredDocument, type StorageBackend } from '../src/index.js';

/** The file backend seen only through the port: kind "forwarding", so openStoredDocument takes its generic path. */
function forwarding(inner: StorageBackend): StorageBackend {
  return { kind: 'forwarding', location: `forwarding:${inner.location}`, limits: inner.limits, documents: inner.documents, logs: inner.logs, queues: inner.queues, locks: inner.locks, close: () => inner.close() };
}

const Catalog = z.object({ title: z.string(), items: z.array(z.string()) });
const catalog = defineDocument({
  schema: Catalog,
  version: 3,
  $schema: 'https://example.com/catalog.json',
  migrations: { 1: ({ name, ...rest }) => ({ ...rest, title: name }), 2: (d) => ({ ...d, items: d.items ?? [] }) },
  initial: { title: 'none', items: [] },
});

describe.each([
  ['the file backend', (root: string) => createFileBackend(root)],
  ['any backend (generic path)', (root: string) => forwarding(createFileBackend(root))],
])('openStoredDocument on %s', (_name, make) => {
  const setup = () => {
    const root = mkdtempSync(join(tmpdir(), 'store-stored-doc-'));
    mkdirSync(join(root, '.ratchet'));
    return { root, doc: openStoredDocument(make(root), '.ratchet/catalog.json', catalog) };
  };

  it('reads the initial value when absent, and writes the same bytes openDocument writes', async () => {
    const { root, doc } = setup();
    expect(await doc.read()).toEqual({ title: 'none', items: [] });
    await doc.update((d) => void d.items.push('a'));
    const reference = mkdtempSync(join(tmpdir(), 'store-stored-ref-'));
    await openDocument(join(reference, 'c.json'), catalog).update((d) => void d.items.push('a'));
    expect(readFileSync(join(root, '.ratchet', 'catalog.json'), 'utf8')).toBe(readFileSync(join(reference, 'c.json'), 'utf8'));
  });

  it('migrates an old document on read and persists the migration on update', async () => {
    const { root, doc } = setup();
    writeFileSync(join(root, '.ratchet', 'catalog.json'), '{ "schemaVersion": 1, "name": "old" }\n');
    expect(await doc.read()).toEqual({ title: 'old', items: [] });
    await doc.update((d) => void d.items.push('x'));
    expect(JSON.parse(readFileSync(join(root, '.ratchet', 'catalog.json'), 'utf8'))).toEqual({ $schema: 'https://example.com/catalog.json', schemaVersion: 3, title: 'old', items: ['x'] });
  });

  it('refuses a document written by a newer version, and writes nothing', async () => {
    const { root, doc } = setup();
    const text = '{ "schemaVersion": 4, "title": "future", "items": [] }\n';
    writeFileSync(join(root, '.ratchet', 'catalog.json'), text);
    await expect(doc.read()).rejects.toBeInstanceOf(SchemaVersionError);
    await expect(doc.update((d) => d)).rejects.toThrow(/newer version: schemaVersion 4/u);
    expect(readFileSync(join(root, '.ratchet', 'catalog.json'), 'utf8')).toBe(text);
  });

  it('an invalid result or a throwing updater writes nothing', async () => {
    const { root, doc } = setup();
    await doc.update((d) => ({ ...d, title: 'kept' }));
    const before = readFileSync(join(root, '.ratchet', 'catalog.json'), 'utf8');
    const err = await doc.update((d) => ({ ...d, title: 42 as unknown as string })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).source).toBe('update');
    await expect(
      doc.update((d) => {
        d.title = 'half';
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(readFileSync(join(root, '.ratchet', 'catalog.json'), 'utf8')).toBe(before);
    expect((await doc.read()).title).toBe('kept');
  });

  it('loses nothing under concurrent updates', async () => {
    const { doc } = setup();
    await Promise.all(Array.from({ length: 20 }, (_, i) => doc.update((d) => void d.items.push(String(i)))));
    expect((await doc.read()).items).toHaveLength(20);
  });
});

describe('openStoredDocument: readSync and keys', () => {
  it('readSync works on the file backend and throws a clear error elsewhere', async () => {
    const root = mkdtempSync(join(tmpdir(), 'store-stored-sync-'));
    const onFile = openStoredDocument(createFileBackend(root), 'c.json', catalog);
    await onFile.update((d) => ({ ...d, title: 'sync' }));
    expect(onFile.readSync().title).toBe('sync');
    const elsewhere = openStoredDocument(forwarding(createFileBackend(root)), 'c.json', catalog);
    expect(() => elsewhere.readSync()).toThrow(/readSync works on the file backend only; .*forwarding backend: use read\(\)/u);
  });

  it('refuses an invalid key before touching anything', () => {
    const root = mkdtempSync(join(tmpdir(), 'store-stored-key-'));
    expect(() => openStoredDocument(createFileBackend(root), '../c.json', catalog)).toThrow(/refused the storage key "\.\.\/c\.json"/u);
  });
});
