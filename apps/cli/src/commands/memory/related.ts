import { related as relatedEntries } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryFile, projectMemory, numberOption, withMemoryErrors } from './shared.js';

/** `ratchet memory related <name>`: breadth-first over typed edges, weight products >= --min-weight. */
export default async function related(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [name] = args;
  if (name === undefined) throw new CliError('memory related: missing <name>');
  const file = memoryFile(ctx, options);
  const maxDepth = numberOption(options, 'depth', '--depth', { min: 1, max: 10, integer: true }) ?? 3;
  const minWeight = numberOption(options, 'minWeight', '--min-weight', { min: 0 }) ?? 0.5;
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
