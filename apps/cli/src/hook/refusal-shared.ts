/**
 * The refusal log's append when the project's state is in a shared database: loaded from the main
 * bundle only then (like activity-shared.ts), so the per-call hook bundles stay small on files.
 */
import { resolveStorageBackend } from '@ratchet/store';
import { REFUSAL_LOG, type RefusalRecord } from '../refusal-log.js';

export async function appendSharedRefusal(root: string, env: Readonly<Record<string, string | undefined>>, record: RefusalRecord): Promise<void> {
  const backend = await resolveStorageBackend(root, { env });
  try {
    await backend.logs.append(REFUSAL_LOG, [record as unknown as Parameters<typeof backend.logs.append>[1][number]]);
  } finally {
    await backend.close();
  }
}
