import { importFtlMemory, type FtlImportResult } from '@ratchet/memory';
import { readJsonFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { displayPath, resolvePath } from '../../paths.js';
import { importInput, type MemoryImportArgs } from './inputs.js';
import { memoryFile, projectMemory, now, withMemoryErrors } from './shared.js';

/** `ratchet memory import <ftl-memory.json>`: every entry through the gates and the merge; exit 1 if some were refused or skipped. */
async function importCommand(ctx: Context, input: MemoryImportArgs): Promise<number> {
  const from = await readJsonFile(resolvePath(ctx, input.source));
  const file = memoryFile(ctx, input.file);
  const at = now();
  let result: FtlImportResult | undefined;
  await withMemoryErrors(displayPath(ctx, from.path), async () => (await projectMemory(ctx, file.path, { createParentDirs: true })).update((draft) => void (result = importFtlMemory(draft, from.value, { now: at }))));
  const r = result!;
  const problems = r.refused.length + r.skipped.length;
  if (ctx.json) ctx.emitJson({ ok: problems === 0, file: file.shown, from: displayPath(ctx, from.path), ...r });
  else {
    ctx.out(`imported into ${file.shown}: ${r.added.length} added, ${r.merged.length} merged into near-duplicates, ${r.links} relations`);
    for (const m of r.merged) ctx.out(`  merged ${m.name} into ${m.into}`);
    for (const x of r.refused) ctx.out(`  refused ${x.kind} ${x.name ?? '(unnamed)'}: ${x.refusals.map((g) => g.reason).join('; ')}`);
    for (const s of r.skipped) ctx.out(`  skipped ${s.pointer}: ${s.reason}`);
  }
  // Kept entries whose regex was dropped: not a failure of the import, but a human should rewrite the pattern.
  for (const n of r.neutralised) ctx.note(`warning: ${n.kind} ${n.name} kept without its match ${JSON.stringify(n.match)} (never run): ${n.reason}`);
  return problems > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
export default withInput(importInput, importCommand);
