/** The conformance kit's child processes open the backend here, from the URL and project the test put in the environment. */
import type { StorageBackend } from '@ratchet/store';
import { createPostgresBackend } from '../../src/index.js';

export function createBackend(): Promise<StorageBackend> {
  const url = process.env.RATCHET_CONFORMANCE_PG_URL;
  const project = process.env.RATCHET_CONFORMANCE_PG_PROJECT;
  if (!url || !project) throw new Error('RATCHET_CONFORMANCE_PG_URL and RATCHET_CONFORMANCE_PG_PROJECT must be set');
  return Promise.resolve(createPostgresBackend({ url, project, pool: { max: 2 } }));
}
