import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { stringOption } from '../../option-values.js';
import { actorOf, intOption, loadRegistryFor, mapErrors, openState, type Options } from './shared.js';

/** `ratchet goals compact [--keep N] [--before T] [--revert-points N]`: the audit trail into summaries. */
export default async function compact(ctx: Context, _args: string[], options: Options): Promise<number> {
  const keep = intOption(options.keep, '--keep');
  const revertPoints = intOption(options.revertPoints, '--revert-points');
  const given = stringOption(options, 'before');
  const before = given === undefined ? undefined : Date.parse(given);
  if (before !== undefined && Number.isNaN(before)) throw new CliError(`--before ${given}: not an ISO 8601 time`);
  return mapErrors(ctx, async () => {
    const registry = await loadRegistryFor(ctx, options);
    const r = await (await openState(ctx, options)).compact(registry, { keep, before, revertPoints }, { actor: actorOf(ctx, options) });
    if (ctx.json) ctx.emitJson({ ok: true, ...r });
    else if (r.compacted === 0) ctx.out(`nothing to compact (${r.kept} entries kept)`);
    else ctx.out(`compacted ${r.compacted} audit entries (v${r.summary!.from_version}-v${r.summary!.to_version}) into a summary; ${r.kept} kept; revert points: ${[...r.revert_points.map((p) => `v${p}`), `v${r.audit_base} and later`].join(', ')}`);
    return EXIT_OK;
  });
}
