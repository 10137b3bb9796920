import type { Context } from '../../context.js';
import { createCampaignOp, createCampaignResult, type CreateCampaignInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { createInput } from './inputs.js';

/** `ratchet campaign create "<objective>"` */
async function create(ctx: Context, input: CreateCampaignInput): Promise<number> {
  const campaign = await createCampaignOp(ctx, input);
  const result = createCampaignResult(ctx, campaign);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`campaign ${campaign.id} created: ${campaign.objective}\nnext: ratchet campaign add-tasks plan.json`);
  return result.exitCode;
}
export default withInput(createInput, create);
