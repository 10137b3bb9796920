import { formatSeq, readCampaignWithClaims, summarize } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard, taskLine } from './shared.js';
import { versioned } from '../../output/json-output.js';

/** `ratchet campaign status`: tasks as the claim queue sees them now (an expired lease reads as pending). */
export default async function status(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const opts = await campaignOptionsWithBackend(ctx, options);
  const { campaign, claims } = await guard(ctx, () => readCampaignWithClaims(ctx.cwd, opts));
  const summary = summarize(campaign);
  const lostAttempts = campaign.tasks.flatMap((t) => (t.lostAttempts ?? []).map((l) => ({ seq: t.seq, ...l })));
  if (ctx.json) {
    ctx.emitJson(versioned('campaign-status', { ok: true, summary, tasks: campaign.tasks, phase: campaign.phase, claims, lostAttempts }));
    return EXIT_OK;
  }
  const c = summary.counts;
  ctx.out(`campaign ${campaign.id}: ${campaign.objective}${campaign.framework === null ? '' : ` [${campaign.framework}]`}`);
  ctx.out(`phase ${campaign.phase ?? '?'}${campaign.phase === 'BUILD' ? ' (run `ratchet memory observe` before `ratchet campaign complete`)' : ''}`);
  ctx.out(`state ${summary.state}: ${summary.total} tasks, ${c.complete} complete, ${c.in_progress} in progress, ${c.pending} pending, ${c.blocked} blocked (${summary.cascaded.length} by cascade), ${summary.waves} waves`);
  for (const t of campaign.tasks) ctx.out(`  ${taskLine(t)}`);
  const live = claims.filter((l) => !l.expired);
  if (live.length > 0) ctx.out(`leases: ${live.map((l) => `${formatSeq(l.seq)} ${l.runner} until ${l.leaseUntil}`).join(', ')}`);
  for (const l of lostAttempts) ctx.out(`lost attempt: ${formatSeq(l.seq)} attempt ${l.attempt} by ${l.runner} (lease expired ${l.leaseUntil}, taken over ${l.recoveredAt})`);
  return EXIT_OK;
}
