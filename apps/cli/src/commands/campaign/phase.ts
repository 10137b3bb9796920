import { advancePhase, readCampaign, type Campaign } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign phase [explored] [--reason TEXT]`: show the phase and its log, or fire an event. */
export default async function phase(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const reason = typeof options.reason === 'string' ? options.reason : undefined;
  const campaign: Campaign =
    args[0] === 'explored'
      ? await guard(ctx, async () => advancePhase(ctx.cwd, 'explored', { ...(await campaignOptionsWithBackend(ctx, options)), ...(reason === undefined ? {} : { reason }) }))
      : await guard(ctx, async () => readCampaign(ctx.cwd, (await campaignOptionsWithBackend(ctx, options))));
  if (ctx.json) {
    ctx.emitJson({ ok: true, campaign: campaign.id, phase: campaign.phase, log: campaign.phaseLog ?? [] });
    return EXIT_OK;
  }
  ctx.out(`campaign ${campaign.id}: phase ${campaign.phase ?? '?'}`);
  for (const e of campaign.phaseLog ?? []) ctx.out(`  ${e.at}  ${e.event.padEnd(12)} ${e.from ?? '-'} -> ${e.to}${e.reason === undefined ? '' : `  (${e.reason})`}`);
  return EXIT_OK;
}
