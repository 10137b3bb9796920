import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { campaignWaves, wavesResult, type CampaignInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { campaignInput } from './inputs.js';

/** `ratchet campaign waves` */
async function wavesCommand(ctx: Context, input: CampaignInput): Promise<number> {
  const outcome = await campaignWaves(ctx, input);
  const result = wavesResult(ctx, outcome);
  if (ctx.json) ctx.emitJson(result.document);
  else {
    const bySeq = new Map(outcome.campaign.tasks.map((t) => [t.seq, t]));
    outcome.waves.forEach((w, i) => ctx.out(`wave ${i + 1}: ${w.map((s) => `${formatSeq(s)} ${bySeq.get(s)?.slug ?? ''} (${bySeq.get(s)?.status ?? ''})`).join(', ')}`));
    if (outcome.waves.length === 0) ctx.out('no tasks yet');
  }
  return result.exitCode;
}
export default withInput(campaignInput, wavesCommand);
