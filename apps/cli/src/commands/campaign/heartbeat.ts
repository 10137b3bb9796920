import { formatSeq, heartbeatClaims } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { leaseOption } from '../../lease-option.js';
import { campaignOptionsWithBackend, guard } from './shared.js';

/** The lease a heartbeat grants without --lease: the same default a builder's claim is told to use. */
export const DEFAULT_HEARTBEAT_LEASE_MS = 15 * 60_000;

/** `ratchet campaign heartbeat RUNNER [--lease 15m]`: renew every leased claim RUNNER holds. */
export default async function heartbeat(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const runner = args[0];
  if (runner === undefined) throw new CliError('heartbeat needs the runner name given to `ready --claim`');
  const leaseMs = leaseOption(options.lease) ?? DEFAULT_HEARTBEAT_LEASE_MS;
  const opts = await campaignOptionsWithBackend(ctx, options);
  const { renewed, lost } = await guard(ctx, () => heartbeatClaims(ctx.cwd, runner, leaseMs, opts));
  if (ctx.json) {
    ctx.emitJson({ ok: true, runner, renewed: renewed.map((r) => ({ seq: r.task.seq, slug: r.task.slug, leaseUntil: r.claim.leaseUntil, attempt: r.claim.attempt })), lost: lost.map((l) => ({ seq: l.seq, holder: l.runner === '' ? null : l.runner })) });
    return EXIT_OK;
  }
  for (const r of renewed) ctx.out(`renewed ${formatSeq(r.task.seq)} ${r.task.slug} for ${runner} until ${r.claim.leaseUntil}`);
  for (const l of lost) ctx.note(`lost ${formatSeq(l.seq)}: ${l.runner === '' ? 'its lease expired; it is ready again' : `now held by ${l.runner}`}`);
  return EXIT_OK;
}
