/** Campaign tasks claimed by this session's runners and still in progress, each with its command. */
import { CampaignError, formatSeq, readCampaign, type Campaign } from '@ratchet/campaign-dag';
import { NotFoundError, StoreError, resolveStorageBackend } from '@ratchet/store';
import { corruptObligation, type Obligation } from './obligations.js';

/**
 * `env` is given when the project's state is on a shared backend (a fleet's PostgreSQL): the
 * campaign is read there, through a backend opened for this call and closed after it. Without it,
 * the local campaign.json is read, as always.
 */
export async function claimObligations(root: string, runners: readonly string[], env?: Readonly<Record<string, string | undefined>>): Promise<Obligation[]> {
  let campaign: Campaign;
  try {
    campaign = env === undefined ? await readCampaign(root) : await readShared(root, env);
  } catch (err) {
    // No active campaign is no obligation; an unreadable one is (a person must repair it).
    if (err instanceof NotFoundError || (err instanceof CampaignError && err.code === 'no-campaign')) return [];
    // By code, not class: the PostgreSQL backend throws its own copy of @ratchet/store's errors.
    const code = storeErrorCode(err);
    // A database that cannot be reached hides the claims: say so rather than let the agent stop on
    // them (its errors name the URL without the password).
    if (code === 'backend-unavailable' || code === 'backend-schema') {
      return [{ kind: 'claim', what: `the shared store cannot be reached to check this session's campaign claims (${(err as Error).message})`, command: 'ratchet store status (then ratchet campaign status, and complete or block each task claimed by this session)' }];
    }
    if (err instanceof StoreError || code !== undefined) return [corruptObligation(root, err as StoreError)];
    throw err;
  }
  const out: Obligation[] = [];
  for (const task of campaign.tasks) {
    if (task.status === 'in_progress' && task.runner !== undefined && runners.includes(task.runner)) {
      const seq = formatSeq(task.seq);
      // Only the holder may finish it: the command names the runner (quoted when it is not one word).
      const runner = /^[A-Za-z0-9._:@-]+$/.test(task.runner) ? task.runner : `'${task.runner.replace(/'/g, "'\\''")}'`;
      out.push({
        kind: 'claim',
        what: `campaign task ${seq} (${task.slug}) is claimed by ${task.runner} and still in_progress`,
        command: `ratchet campaign update-task ${seq} complete --runner ${runner} (or: ratchet campaign update-task ${seq} blocked --runner ${runner} --reason "<why>")`,
      });
    }
  }
  return out;
}

async function readShared(root: string, env: Readonly<Record<string, string | undefined>>): Promise<Campaign> {
  const backend = await resolveStorageBackend(root, { env });
  try {
    return await readCampaign(root, { backend });
  } finally {
    await backend.close();
  }
}

/** The `code` of a StoreError from any copy of @ratchet/store, else undefined. */
function storeErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; path?: unknown; reason?: unknown } | null;
  return err instanceof Error && typeof e?.code === 'string' && typeof e.path === 'string' && typeof e.reason === 'string' ? e.code : undefined;
}
