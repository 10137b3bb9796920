import type { Context } from '../../context.js';
import { campaignPhase, campaignPhaseResult, type CampaignPhaseInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { phaseInput } from './inputs.js';

/** `ratchet campaign phase [explored] [--reason TEXT]`: show the phase and its log, or fire an event. */
async function phase(ctx: Context, input: CampaignPhaseInput): Promise<number> {
  const campaign = await campaignPhase(ctx, input);
  const result = campaignPhaseResult(ctx, campaign);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  ctx.out(`campaign ${campaign.id}: phase ${campaign.phase ?? '?'}`);
  for (const e of campaign.phaseLog ?? []) ctx.out(`  ${e.at}  ${e.event.padEnd(12)} ${e.from ?? '-'} -> ${e.to}${e.reason === undefined ? '' : `  (${e.reason})`}`);
  return result.exitCode;
}
export default withInput(phaseInput, phase);
