import type { Context } from '../../context.js';
import { completeCampaignOp, completeCampaignResult, type CompleteCampaignInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { completeInput } from './inputs.js';

/** `ratchet campaign complete [--force] [--skip-observe REASON]`: refused (exit 2) before the observer ran, unless skipped with a reason. */
async function complete(ctx: Context, input: CompleteCampaignInput): Promise<number> {
  const outcome = await completeCampaignOp(ctx, input);
  const result = completeCampaignResult(ctx, outcome);
  const { summary } = outcome;
  if (ctx.json) ctx.emitJson(result.document);
  else {
    ctx.out(`archived ${summary.id} to ${displayPath(ctx, outcome.archivePath)}${input.skipObserve === undefined ? '' : ` (observer skipped: ${input.skipObserve})`}`);
    ctx.out(`  ${summary.counts.complete}/${summary.total} complete, ${summary.rootFailures.length} failed, ${summary.cascaded.length} blocked by cascade, ${summary.counts.pending} never started`);
    if (outcome.workspacePath !== undefined) ctx.out(`  workspaces moved to ${displayPath(ctx, outcome.workspacePath)}`);
  }
  return result.exitCode;
}
export default withInput(completeInput, complete);
