import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { heartbeat, heartbeatResult, type HeartbeatInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { heartbeatInput } from './inputs.js';

/** `ratchet campaign heartbeat RUNNER [--lease 15m]`: renew every leased claim RUNNER holds. */
async function heartbeatCommand(ctx: Context, input: HeartbeatInput): Promise<number> {
  const outcome = await heartbeat(ctx, input);
  const result = heartbeatResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  for (const r of outcome.renewed) ctx.out(`renewed ${formatSeq(r.task.seq)} ${r.task.slug} for ${outcome.runner} until ${r.claim.leaseUntil}`);
  for (const l of outcome.lost) ctx.note(`lost ${formatSeq(l.seq)}: ${l.runner === '' ? 'its lease expired; it is ready again' : `now held by ${l.runner}`}`);
  return result.exitCode;
}
export default withInput(heartbeatInput, heartbeatCommand);
