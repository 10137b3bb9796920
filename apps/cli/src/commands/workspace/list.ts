import { readCampaignWorkspaces } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { campaignOptions, guard } from '../campaign/shared.js';

/** `ratchet workspace list` */
export default async function list(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const { workspaces, skipped } = await guard(ctx, () => readCampaignWorkspaces(ctx.cwd, campaignOptions(ctx, options)));
  for (const s of skipped) ctx.note(`skipped ${displayPath(ctx, s.path)}: ${s.reason}`);
  if (ctx.json) ctx.emitJson({ ok: true, workspaces: workspaces.map((w) => ({ ...w, file: displayPath(ctx, w.file) })), skipped });
  else if (workspaces.length === 0) ctx.out('no workspaces yet');
  else {
    for (const w of workspaces) {
      // A retried task lists its live workspace and each failed earlier attempt (kept as history).
      const label = w.live && w.attempt === undefined ? w.id : `${w.id} #${w.attempt ?? 1}${w.live ? '' : ' (earlier)'}`;
      ctx.out(`${label.padEnd(28)} ${w.status.padEnd(9)} ${(w.blockedReason ?? w.delivered).split('\n')[0] ?? ''}`);
    }
  }
  return EXIT_OK;
}
