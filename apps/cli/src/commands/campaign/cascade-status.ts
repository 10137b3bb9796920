import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { cascadeStatus, cascadeStatusResult, type CampaignInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { campaignInput } from './inputs.js';

const list = (seqs: number[]): string => (seqs.length === 0 ? '-' : seqs.map(formatSeq).join(', '));

/** `ratchet campaign cascade-status` */
async function cascadeStatusCommand(ctx: Context, input: CampaignInput): Promise<number> {
  const status = await cascadeStatus(ctx, input);
  const result = cascadeStatusResult(ctx, status);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  ctx.out(`state: ${status.state}`);
  ctx.out(`ready:       ${list(status.ready)}`);
  ctx.out(`in progress: ${list(status.inProgress)}`);
  ctx.out(`pending:     ${list(status.pending)}`);
  ctx.out(`complete:    ${list(status.complete)}`);
  ctx.out(`blocked:     ${list(status.blocked)}`);
  ctx.out(`unreachable: ${status.unreachable.length === 0 ? '-' : ''}`);
  for (const u of status.unreachable) ctx.out(`  ${formatSeq(u.seq)} blocked by ${list(u.blockedBy)} (root cause ${formatSeq(u.rootCause)})`);
  if (status.state === 'stuck') ctx.out('next: ratchet campaign propagate-blocks');
  return result.exitCode;
}
export default withInput(campaignInput, cascadeStatusCommand);
