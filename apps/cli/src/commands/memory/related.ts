import { related as relatedEntries } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { withInput } from '../../option-values.js';
import { relatedInput, type MemoryRelatedArgs } from './inputs.js';
import { memoryFile, projectMemory, withMemoryErrors } from './shared.js';

/** `ratchet memory related <name>`: breadth-first over typed edges, weight products >= --min-weight. */
async function related(ctx: Context, input: MemoryRelatedArgs): Promise<number> {
  const { name, maxDepth, minWeight } = input;
  const file = memoryFile(ctx, input.file);
  const data = await (await projectMemory(ctx, file.path)).read();
  const found = await withMemoryErrors(file.shown, () => Promise.resolve(relatedEntries(data, name, { maxDepth, minWeight })));
  if (ctx.json) {
    ctx.emitJson({ ok: true, file: file.shown, name, related: found });
    return EXIT_OK;
  }
  if (found.length === 0) ctx.out(`nothing related to ${name} with weight >= ${minWeight}`);
  for (const r of found) {
    const path = r.path.map((s) => `-[${s.type} ${s.weight}]-> ${s.to}`).join(' ');
    ctx.out(`${r.weight.toFixed(2).padStart(5)}  ${r.kind} ${r.name}   ${name} ${path}`);
  }
  return EXIT_OK;
}
export default withInput(relatedInput, related);
