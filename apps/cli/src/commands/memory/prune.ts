import type { Context } from '../../context.js';
import { memoryPruneResult, pruneProjectMemory, type MemoryPruneInput } from '../../operations/memory.js';
import { withInput } from '../../option-values.js';
import { pruneInput } from './inputs.js';

/** `ratchet memory prune [--dry-run]`. */
async function prune(ctx: Context, input: MemoryPruneInput): Promise<number> {
  const pruned = await pruneProjectMemory(ctx, input);
  const result = memoryPruneResult(pruned);
  const { file, dryRun, minImportance, result: r } = pruned;
  if (ctx.json) ctx.emitJson(result.document);
  else {
    const verb = dryRun ? 'would remove' : 'removed';
    if (r.removed.length === 0) ctx.out(`nothing to prune in ${file.shown} (${r.kept} entries, all with importance >= ${minImportance})`);
    else {
      ctx.out(`${verb} ${r.removed.length}, kept ${r.kept}:`);
      for (const x of r.removed) ctx.out(`  ${x.kind} ${x.name} (importance ${x.importance.toFixed(3)})`);
    }
  }
  return result.exitCode;
}
export default withInput(pruneInput, prune);
