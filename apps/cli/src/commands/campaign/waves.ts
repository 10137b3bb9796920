import { formatSeq, readCampaign, waves } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign waves` */
export default async function wavesCommand(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const campaign = await guard(ctx, async () => readCampaign(ctx.cwd, (await campaignOptionsWithBackend(ctx, options))));
  const layers = waves(campaign.tasks);
  if (ctx.json) ctx.emitJson({ ok: true, waves: layers });
  else {
    const bySeq = new Map(campaign.tasks.map((t) => [t.seq, t]));
    layers.forEach((w, i) => ctx.out(`wave ${i + 1}: ${w.map((s) => `${formatSeq(s)} ${bySeq.get(s)?.slug ?? ''} (${bySeq.get(s)?.status ?? ''})`).join(', ')}`));
    if (layers.length === 0) ctx.out('no tasks yet');
  }
  return EXIT_OK;
}
