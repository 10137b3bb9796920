import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { addFailure, checkMemoryData, MEMORY_SCHEMA_URL, openMemory } from '../src/index.js';
import type { StorageBackend } from '@ratchet/store';
import { failure, NOW, tempDir } from './support.js';

const worker = fileURLToPath(new URL('./fixtures/worker.mjs', import.meta.url));

describe('memory.json through the store', () => {
  test('a missing file reads empty; the first update creates it with $schema and schemaVersion', async () => {
    const file = join(tempDir(), 'memory.json');
    const memory = openMemory(file);
    expect(await memory.read()).toEqual({ failures: [], patterns: [] });
    await memory.update((d) => void addFailure(d, { trigger: 'vite HMR breaks on symlinked packages', fix: 'set resolve.preserveSymlinks', cost: 2000 }, { now: NOW }));
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ $schema: MEMORY_SCHEMA_URL, schemaVersion: 1, failures: [{ name: 'vite-hmr-breaks-on-symlinked-packages' }] });
    expect((await memory.read()).failures).toHaveLength(1);
  });

  test.each([
    ['truncated JSON', '{"schemaVersion": 1, "failures": [', 'parse-error'],
    ['a __proto__ key', '{"schemaVersion": 1, "failures": [], "patterns": [], "__proto__": {"x": 1}}', 'unsafe-input'],
    ['binary', '\u0000\u0001\u0002', 'binary-file'],
    ['wrong types, placed', '{\n  "schemaVersion": 1,\n  "failures": [{"name": 1}],\n  "patterns": []\n}\n', 'validation-error'],
    ['a newer schemaVersion', '{"schemaVersion": 9, "failures": [], "patterns": []}', 'schema-version'],
  ])('%s: a typed error with the place, and the file is never overwritten', async (_what, text, code) => {
    const file = join(tempDir(), 'memory.json');
    writeFileSync(file, text);
    const memory = openMemory(file);
    await expect(memory.read()).rejects.toMatchObject({ code, path: file });
    await expect(memory.update((d) => void d.failures.push(failure('x', 'some trigger text')))).rejects.toMatchObject({ code });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  test('validation errors carry line and column', async () => {
    const file = join(tempDir(), 'memory.json');
    writeFileSync(file, '{\n  "schemaVersion": 1,\n  "failures": [{"name": 1}],\n  "patterns": []\n}\n');
    await expect(openMemory(file).read()).rejects.toMatchObject({ code: 'validation-error', issues: expect.arrayContaining([expect.objectContaining({ pointer: '/failures/0/name', line: 3 })]) as unknown });
  });

  test('a BOM and CRLF line endings are fine', async () => {
    const file = join(tempDir(), 'memory.json');
    writeFileSync(file, `\uFEFF{\r\n"schemaVersion": 1,\r\n"failures": ${JSON.stringify([failure('a', 'crlf trigger text here')])},\r\n"patterns": []\r\n}\r\n`);
    expect((await openMemory(file).read()).failures[0]!.name).toBe('a');
  });

  test('duplicate names, unknown keys and bad relation types are refused', () => {
    const f = failure('a', 'trigger text for a');
    expect(checkMemoryData({ failures: [f, f], patterns: [] }).map((i) => i.message)).toEqual([expect.stringContaining('duplicate name') as string]);
    expect(checkMemoryData({ failures: [{ ...f, extra: 1 }], patterns: [] })[0]).toMatchObject({ code: 'unrecognized_keys' });
    expect(checkMemoryData({ failures: [{ ...f, related_typed: { hates: ['b'] } }], patterns: [] })[0]!.path).toEqual(['failures', 0, 'related_typed', 'hates']);
    expect(checkMemoryData({ failures: [{ ...f, created_at: 'yesterday' }], patterns: [] })[0]!.path).toEqual(['failures', 0, 'created_at']);
  });

  test('4 processes adding concurrently lose nothing', async () => {
    const file = join(tempDir(), 'memory.json');
    const perWorker = 8;
    await Promise.all(
      [0, 1, 2, 3].map(
        (id) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--conditions=@ratchet/source', '--import', 'tsx', worker, 'add', file, String(perWorker), String(id)], { stdio: ['ignore', 'ignore', 'pipe'] });
            let err = '';
            child.stderr.on('data', (c: Buffer) => (err += c.toString()));
            const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
            child.on('close', (code) => {
              clearTimeout(timer);
              if (code === 0) resolve();
              else reject(new Error(`worker ${id} exited ${code}: ${err}`));
            });
          }),
      ),
    );
    const data = await openMemory(file).read();
    expect(data.failures).toHaveLength(4 * perWorker);
    expect(new Set(data.failures.map((f) => f.name)).size).toBe(4 * perWorker);
  }, 90_000);
});

describe('openMemory with a storage backend', () => {
  test('the file backend is the file at path, as without one', async () => {
    const dir = tempDir();
    const { createFileBackend } = await import('@ratchet/store');
    const memory = openMemory(join(dir, '.ratchet', 'memory.json'), { backend: createFileBackend(dir), key: '.ratchet/memory.json', createParentDirs: true });
    await memory.update((d) => void addFailure(d, { trigger: 'vite HMR breaks on symlinked packages', fix: 'set resolve.preserveSymlinks', cost: 2000 }, { now: NOW }));
    expect(JSON.parse(readFileSync(join(dir, '.ratchet', 'memory.json'), 'utf8'))).toMatchObject({ schemaVersion: 1, failures: [{ name: 'vite-hmr-breaks-on-symlinked-packages' }] });
  });

  test('a shared backend without the document key is refused', () => {
    const shared = { kind: 'postgres', location: 'postgres://db/x' } as unknown as StorageBackend;
    expect(() => openMemory('/x/memory.json', { backend: shared })).toThrow(/needs the key/);
  });
});
