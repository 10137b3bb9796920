/** The storage port's conformance kit, run against the file backend (as @ratchet/store-postgres runs it against PostgreSQL). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { describeStorageConformance } from '../src/conformance/index.js';
import { createFileBackend } from '../src/index.js';

describeStorageConformance({
  name: 'file backend',
  // A small document limit, so the size check does not need a 16 MiB value.
  create: () => createFileBackend(mkdtempSync(join(tmpdir(), 'store-conformance-')), { maxDocumentBytes: 64 * 1024, lock: { timeoutMs: 120_000 } }),
  workerModule: join(inject('childDir'), 'test', 'workers', 'file-backend.js'),
  capabilities: ({ backend }) => {
    it('limits name the document size it refuses', () => {
      expect(backend().limits.maxDocumentBytes).toBe(64 * 1024);
    });
  },
});
