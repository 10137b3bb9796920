/**
 * The post-tool-use hook's append when the project's state is in a shared database: loaded from the
 * main bundle only then (like the claim check), so the per-call hook bundle stays small on files.
 * Opens the backend for this one append and closes it.
 */
import { ACTIVITY_LOG_PATH, openActivityLogStore, type ActivityEntry } from '@ratchet/orchestrator';
import { resolveStorageBackend } from '@ratchet/store';

export async function appendSharedActivity(root: string, env: Readonly<Record<string, string | undefined>>, entry: ActivityEntry): Promise<void> {
  const backend = await resolveStorageBackend(root, { env });
  try {
    await openActivityLogStore(ACTIVITY_LOG_PATH, { backend, key: ACTIVITY_LOG_PATH }).append([entry]);
  } finally {
    await backend.close();
  }
}
