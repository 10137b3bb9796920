/** The conformance kit's worker module for the file backend: the root comes from the environment. */
import { createFileBackend, type StorageBackend } from '../../src/index.js';

export function createBackend(): Promise<StorageBackend> {
  const root = process.env.RATCHET_CONFORMANCE_LOCATION;
  if (root === undefined) throw new Error('RATCHET_CONFORMANCE_LOCATION is not set');
  return Promise.resolve(createFileBackend(root, { lock: { timeoutMs: 120_000 } }));
}
