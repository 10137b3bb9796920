import { readCampaign, renderGraph } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { graphInput, type CampaignGraphArgs } from './inputs.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign graph [--format mermaid|dot]` */
async function graph(ctx: Context, input: CampaignGraphArgs): Promise<number> {
  const campaign = await guard(ctx, async () => readCampaign(ctx.cwd, await campaignOptionsWithBackend(ctx)));
  const { format } = input;
  const text = renderGraph(campaign.tasks, format);
  if (ctx.json) ctx.emitJson({ ok: true, format, text });
  else ctx.out(text.trimEnd());
  return EXIT_OK;
}
export default withInput(graphInput, graph);
