import { readCampaign, summarize } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptions, guard, taskLine } from './shared.js';
import { versioned } from '../../output/json-output.js';

/** `ratchet campaign status` */
export default async function status(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const campaign = await guard(ctx, () => readCampaign(ctx.cwd, campaignOptions(ctx, options)));
  const summary = summarize(campaign);
  if (ctx.json) {
    ctx.emitJson(versioned('campaign-status', { ok: true, summary, tasks: campaign.tasks, phase: campaign.phase }));
    return EXIT_OK;
  }
  const c = summary.counts;
  ctx.out(`campaign ${campaign.id}: ${campaign.objective}${campaign.framework === null ? '' : ` [${campaign.framework}]`}`);
  ctx.out(`phase ${campaign.phase ?? '?'}${campaign.phase === 'BUILD' ? ' (run `ratchet memory observe` before `ratchet campaign complete`)' : ''}`);
  ctx.out(`state ${summary.state}: ${summary.total} tasks, ${c.complete} complete, ${c.in_progress} in progress, ${c.pending} pending, ${c.blocked} blocked (${summary.cascaded.length} by cascade), ${summary.waves} waves`);
  for (const t of campaign.tasks) ctx.out(`  ${taskLine(t)}`);
  return EXIT_OK;
}
