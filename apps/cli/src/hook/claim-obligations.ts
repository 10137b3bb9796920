/** Campaign tasks claimed by this session's runners and still in progress, each with its command. */
import { CampaignError, formatSeq, readCampaign } from '@ratchet/campaign-dag';
import { NotFoundError, StoreError } from '@ratchet/store';
import { corruptObligation, type Obligation } from './obligations.js';

export async function claimObligations(root: string, runners: readonly string[]): Promise<Obligation[]> {
  let campaign;
  try {
    campaign = await readCampaign(root);
  } catch (err) {
    // No active campaign is no obligation; an unreadable one is (a person must repair it).
    if (err instanceof NotFoundError || (err instanceof CampaignError && err.code === 'no-campaign')) return [];
    if (err instanceof StoreError) return [corruptObligation(root, err)];
    throw err;
  }
  const out: Obligation[] = [];
  for (const task of campaign.tasks) {
    if (task.status === 'in_progress' && task.runner !== undefined && runners.includes(task.runner)) {
      const seq = formatSeq(task.seq);
      out.push({
        kind: 'claim',
        what: `campaign task ${seq} (${task.slug}) is claimed by ${task.runner} and still in_progress`,
        command: `ratchet campaign update-task ${seq} complete (or: ratchet campaign update-task ${seq} blocked --reason "<why>")`,
      });
    }
  }
  return out;
}
