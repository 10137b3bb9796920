import { prune as pruneMemory, type PruneResult } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryFile, projectMemory, now, numberOption } from './shared.js';

/** `ratchet memory prune [--dry-run]`. */
export default async function prune(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const file = memoryFile(ctx, options);
  const minImportance = numberOption(options, 'minImportance', '--min-importance', { min: 0 }) ?? 0.1;
  const at = now();
  const memory = await projectMemory(ctx, file.path);
  const dryRun = options.dryRun === true;
  let result: PruneResult;
  if (dryRun) result = pruneMemory(structuredClone(await memory.read()), { now: at, minImportance });
  else {
    let r: PruneResult | undefined;
    await memory.update((draft) => void (r = pruneMemory(draft, { now: at, minImportance })));
    result = r!;
  }
  if (ctx.json) ctx.emitJson({ ok: true, file: file.shown, dryRun, ...result });
  else {
    const verb = dryRun ? 'would remove' : 'removed';
    if (result.removed.length === 0) ctx.out(`nothing to prune in ${file.shown} (${result.kept} entries, all with importance >= ${minImportance})`);
    else {
      ctx.out(`${verb} ${result.removed.length}, kept ${result.kept}:`);
      for (const r of result.removed) ctx.out(`  ${r.kind} ${r.name} (importance ${r.importance.toFixed(3)})`);
    }
  }
  return EXIT_OK;
}
