import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { propagateBlocks, propagateBlocksResult, type CampaignInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { campaignInput } from './inputs.js';

/** `ratchet campaign propagate-blocks` */
async function propagateBlocksCommand(ctx: Context, input: CampaignInput): Promise<number> {
  const changed = await propagateBlocks(ctx, input);
  const result = propagateBlocksResult(ctx, changed);
  if (ctx.json) ctx.emitJson(result.document);
  else if (changed.length === 0) ctx.out('nothing to propagate: no pending task sits below a blocked one');
  else {
    ctx.out(`blocked ${changed.length} task${changed.length === 1 ? '' : 's'} by cascade:`);
    for (const u of changed) ctx.out(`  ${formatSeq(u.seq)} blocked by ${u.blockedBy.map(formatSeq).join(', ')} (root cause ${formatSeq(u.rootCause)})`);
  }
  return result.exitCode;
}
export default withInput(campaignInput, propagateBlocksCommand);
