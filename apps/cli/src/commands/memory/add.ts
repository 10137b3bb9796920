import { addFailure, addPattern, type AddResult } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { memoryFile, projectMemory, now, numberOption, stringList, withMemoryErrors } from './shared.js';

const REFUSED = new Error('refused');

/** `ratchet memory add-failure|add-pattern`: gates, near-duplicate merge, caps; one locked update. */
export default async function add(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const kind = args[0] === 'pattern' ? 'pattern' : 'failure';
  const file = memoryFile(ctx, options);
  const value = numberOption(options, kind === 'failure' ? 'cost' : 'saved', kind === 'failure' ? '--cost' : '--saved', { min: 0 })!;
  const common = {
    name: typeof options.name === 'string' ? options.name : undefined,
    trigger: String(options.trigger),
    source: stringList(options.source),
    tags: stringList(options.tag),
  };
  const at = now();
  let result: AddResult | undefined;
  try {
    await withMemoryErrors(file.shown, async () =>
      (await projectMemory(ctx, file.path, { createParentDirs: true })).update((draft) => {
        result =
          kind === 'failure'
            ? addFailure(draft, { ...common, fix: String(options.fix), cost: value, match: typeof options.match === 'string' ? options.match : undefined }, { now: at })
            : addPattern(draft, { ...common, insight: String(options.insight), saved: value }, { now: at });
        // Throwing inside update writes nothing: a refusal leaves the file (or its absence) as it was.
        if (result.status === 'refused') throw REFUSED;
      }),
    );
  } catch (err) {
    if (err !== REFUSED) throw err;
  }
  const r = result!;
  if (ctx.json) ctx.emitJson({ ok: r.status !== 'refused', file: file.shown, ...r });
  else if (r.status === 'refused') {
    ctx.out(`refused ${kind}${r.name === undefined ? '' : ` ${r.name}`}:`);
    for (const x of r.refusals) ctx.out(`  ${x.gate}: ${x.reason}`);
  } else {
    ctx.out(r.status === 'added' ? `added ${kind} ${r.name} to ${file.shown}` : `merged into ${kind} ${r.name} (similarity ${r.similarity.toFixed(2)}): sources and tags unioned`);
    if (r.evicted.length > 0) ctx.out(`evicted (over the cap, least important): ${r.evicted.join(', ')}`);
  }
  return r.status === 'refused' ? EXIT_PROBLEMS : EXIT_OK;
}
