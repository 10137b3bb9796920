import { completeCampaign } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign complete [--force] [--skip-observe REASON]`: refused (exit 2) before the observer ran, unless skipped with a reason. */
export default async function complete(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const skipObserve = typeof options.skipObserve === 'string' ? options.skipObserve : undefined;
  const result = await guard(ctx, async () => completeCampaign(ctx.cwd, { ...(await campaignOptionsWithBackend(ctx, options)), force: options.force === true, ...(skipObserve === undefined ? {} : { skipObserve }) }));
  const { summary } = result;
  if (ctx.json) ctx.emitJson({ ok: true, archive: displayPath(ctx, result.archivePath), workspaces: result.workspacePath === undefined ? null : displayPath(ctx, result.workspacePath), summary });
  else {
    ctx.out(`archived ${summary.id} to ${displayPath(ctx, result.archivePath)}${skipObserve === undefined ? '' : ` (observer skipped: ${skipObserve})`}`);
    ctx.out(`  ${summary.counts.complete}/${summary.total} complete, ${summary.rootFailures.length} failed, ${summary.cascaded.length} blocked by cascade, ${summary.counts.pending} never started`);
    if (result.workspacePath !== undefined) ctx.out(`  workspaces moved to ${displayPath(ctx, result.workspacePath)}`);
  }
  return EXIT_OK;
}
