import { link as linkEntries, type EdgeType } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryFile, projectMemory, withMemoryErrors } from './shared.js';

/** `ratchet memory link <from> <to> --type T`. */
export default async function link(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [from, to] = args;
  if (from === undefined || to === undefined) throw new CliError('memory link: need <from> and <to>');
  const type = String(options.type) as EdgeType;
  const file = memoryFile(ctx, options);
  await withMemoryErrors(file.shown, async () => (await projectMemory(ctx, file.path)).update((draft) => linkEntries(draft, from, to, type)));
  if (ctx.json) ctx.emitJson({ ok: true, file: file.shown, from, to, type });
  else ctx.out(`linked ${from} -[${type}]-> ${to}`);
  return EXIT_OK;
}
