import { formatSeq, readCascade } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

const list = (seqs: number[]): string => (seqs.length === 0 ? '-' : seqs.map(formatSeq).join(', '));

/** `ratchet campaign cascade-status` */
export default async function cascadeStatusCommand(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const status = await guard(ctx, async () => readCascade(ctx.cwd, (await campaignOptionsWithBackend(ctx, options))));
  if (ctx.json) {
    ctx.emitJson({ ok: true, ...status });
    return EXIT_OK;
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
  return EXIT_OK;
}
