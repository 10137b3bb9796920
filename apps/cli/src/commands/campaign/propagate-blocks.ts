import { formatSeq, propagate } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** `ratchet campaign propagate-blocks` */
export default async function propagateBlocks(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const changed = await guard(ctx, async () => propagate(ctx.cwd, (await campaignOptionsWithBackend(ctx, options))));
  if (ctx.json) ctx.emitJson({ ok: true, blocked: changed });
  else if (changed.length === 0) ctx.out('nothing to propagate: no pending task sits below a blocked one');
  else {
    ctx.out(`blocked ${changed.length} task${changed.length === 1 ? '' : 's'} by cascade:`);
    for (const u of changed) ctx.out(`  ${formatSeq(u.seq)} blocked by ${u.blockedBy.map(formatSeq).join(', ')} (root cause ${formatSeq(u.rootCause)})`);
  }
  return EXIT_OK;
}
