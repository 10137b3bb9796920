import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { campaignStatus, campaignStatusResult, type CampaignInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { campaignInput } from './inputs.js';
import { taskLine } from './shared.js';

/** `ratchet campaign status`: tasks as the claim queue sees them now (an expired lease reads as pending). */
async function status(ctx: Context, input: CampaignInput): Promise<number> {
  const outcome = await campaignStatus(ctx, input);
  const result = campaignStatusResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { campaign, claims, summary, lostAttempts } = outcome;
  const c = summary.counts;
  ctx.out(`campaign ${campaign.id}: ${campaign.objective}${campaign.framework === null ? '' : ` [${campaign.framework}]`}`);
  ctx.out(`phase ${campaign.phase ?? '?'}${campaign.phase === 'BUILD' ? ' (run `ratchet memory observe` before `ratchet campaign complete`)' : ''}`);
  ctx.out(`state ${summary.state}: ${summary.total} tasks, ${c.complete} complete, ${c.in_progress} in progress, ${c.pending} pending, ${c.blocked} blocked (${summary.cascaded.length} by cascade), ${summary.waves} waves`);
  for (const t of campaign.tasks) ctx.out(`  ${taskLine(t)}`);
  const live = claims.filter((l) => !l.expired);
  if (live.length > 0) ctx.out(`leases: ${live.map((l) => `${formatSeq(l.seq)} ${l.runner} until ${l.leaseUntil}`).join(', ')}`);
  for (const l of lostAttempts) ctx.out(`lost attempt: ${formatSeq(l.seq)} attempt ${l.attempt} by ${l.runner} (lease expired ${l.leaseUntil}, taken over ${l.recoveredAt})`);
  return result.exitCode;
}
export default withInput(campaignInput, status);
