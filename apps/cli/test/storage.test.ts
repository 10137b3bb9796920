/**
 * The storage backend of a command: opened lazily per command and closed after it, or, under
 * `keepStorageOpen` (the MCP server), one per project kept across commands until the closer runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeContext, type Io } from '../src/context.js';
import { keepStorageOpen } from '../src/index.js';
import { closeStorage, storageOf } from '../src/storage.js';

const io = (env: Record<string, string | undefined> = {}): Io => ({ stdout: () => undefined, stderr: () => undefined, isTTY: false, env, cwd: '/', readStdin: () => Promise.resolve('') });
const ctxAt = (cwd: string, env: Record<string, string | undefined> = {}) => makeContext(io(env), { json: false, quiet: true, cwd, color: false });

describe('storage per command', () => {
  test('each command gets its own backend, opened on first use and dropped when it ends', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-storage-'));
    const a = ctxAt(root);
    const b = ctxAt(root);
    const first = await storageOf(a);
    expect(await storageOf(a)).toBe(first);
    expect(first.kind).toBe('file');
    expect(first.location).toBe(root);
    expect(await storageOf(b)).not.toBe(first);
    await closeStorage(a);
    await closeStorage(a);
    expect(await storageOf(a)).not.toBe(first);
  });

  test('keepStorageOpen: one backend per project across commands, closed by the returned function', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-storage-'));
    const other = mkdtempSync(join(tmpdir(), 'cli-storage-'));
    const closeAll = keepStorageOpen();
    let shared: unknown;
    try {
      const a = ctxAt(root);
      shared = await storageOf(a);
      await closeStorage(a);
      expect(await storageOf(ctxAt(root))).toBe(shared);
      expect(await storageOf(ctxAt(other))).not.toBe(shared);
      // A bad store setting is refused every time, never kept.
      await expect(storageOf(ctxAt(root, { RATCHET_STORE: 'mysql://x' }))).rejects.toMatchObject({ code: 'backend-unavailable' });
      await expect(storageOf(ctxAt(root, { RATCHET_STORE: 'mysql://x' }))).rejects.toMatchObject({ code: 'backend-unavailable' });
    } finally {
      await closeAll();
    }
    // Closed and forgotten: the next command opens a fresh one (and closes it itself).
    const after = ctxAt(root);
    expect(await storageOf(after)).not.toBe(shared);
    await closeStorage(after);
  });
});
