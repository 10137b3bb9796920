import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { compactInput, type CompactInput } from './goals-inputs.js';
import { actorOf, loadRegistryFor, mapErrors, openState } from './shared.js';

/** `ratchet goals compact [--keep N] [--before T] [--revert-points N]`: the audit trail into summaries. */
async function compact(ctx: Context, input: CompactInput): Promise<number> {
  const { keep, before, revertPoints } = input;
  return mapErrors(ctx, async () => {
    const registry = await loadRegistryFor(ctx, input);
    const r = await (await openState(ctx, input)).compact(registry, { keep, before, revertPoints }, { actor: actorOf(ctx, input), expected_version: input.expectedVersion });
    if (ctx.json) ctx.emitJson({ ok: true, ...r });
    else if (r.compacted === 0) ctx.out(`nothing to compact (${r.kept} entries kept)`);
    else ctx.out(`compacted ${r.compacted} audit entries (v${r.summary!.from_version}-v${r.summary!.to_version}) into a summary; ${r.kept} kept; revert points: ${[...r.revert_points.map((p) => `v${p}`), `v${r.audit_base} and later`].join(', ')}`);
    return EXIT_OK;
  });
}

export default withInput(compactInput, compact);
