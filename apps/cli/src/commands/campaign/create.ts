import { createCampaign } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign create "<objective>"` */
export default async function create(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [objective = ''] = args;
  const framework = typeof options.framework === 'string' ? options.framework : undefined;
  const campaign = await guard(ctx, async () => createCampaign(ctx.cwd, objective, { ...(await campaignOptionsWithBackend(ctx, options)), ...(framework === undefined ? {} : { framework }) }));
  if (ctx.json) ctx.emitJson({ ok: true, campaign });
  else ctx.out(`campaign ${campaign.id} created: ${campaign.objective}\nnext: ratchet campaign add-tasks plan.json`);
  return EXIT_OK;
}
