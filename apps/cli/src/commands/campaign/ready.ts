import { formatSeq } from '@ratchet/campaign-dag';
import { formatLeaseDuration } from '@ratchet/store';
import type { Context } from '../../context.js';
import { campaignReady, campaignReadyResult, type CampaignReadyInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { readyInput } from './inputs.js';
import { taskLine } from './shared.js';

/** `ratchet campaign ready [--claim RUNNER [--lease 15m]]` */
async function ready(ctx: Context, input: CampaignReadyInput): Promise<number> {
  const outcome = await campaignReady(ctx, input);
  const result = campaignReadyResult(ctx, outcome);
  if (ctx.json) ctx.emitJson(result.document);
  else if (outcome.kind === 'ready') {
    if (outcome.tasks.length === 0) ctx.out('no task is ready (see: ratchet campaign cascade-status)');
    else for (const t of outcome.tasks) ctx.out(taskLine(t));
  } else {
    const { task, runner, leaseMs, leaseUntil, recovered } = outcome;
    if (task === undefined) ctx.out('nothing ready to claim');
    else {
      const lease = leaseMs === undefined ? '' : `, lease ${formatLeaseDuration(leaseMs)} until ${leaseUntil ?? '?'} (renew: ratchet campaign heartbeat ${runner})`;
      ctx.out(`claimed ${formatSeq(task.seq)} ${task.slug} for ${runner}${lease}`);
      if (recovered !== undefined) ctx.out(`  taken over from ${recovered.runner}, whose lease expired at ${recovered.leaseUntil} (attempt ${recovered.attempt} lost)`);
    }
  }
  return result.exitCode;
}
export default withInput(readyInput, ready);
