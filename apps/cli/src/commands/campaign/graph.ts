import { readCampaign, renderGraph } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign graph [--format mermaid|dot]` */
export default async function graph(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const campaign = await guard(ctx, async () => readCampaign(ctx.cwd, (await campaignOptionsWithBackend(ctx, options))));
  const format = options.format === 'dot' ? 'dot' : 'mermaid';
  const text = renderGraph(campaign.tasks, format);
  if (ctx.json) ctx.emitJson({ ok: true, format, text });
  else ctx.out(text.trimEnd());
  return EXIT_OK;
}
