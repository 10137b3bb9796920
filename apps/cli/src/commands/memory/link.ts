import type { Context } from '../../context.js';
import { linkMemory, memoryLinkResult, type MemoryLinkInput } from '../../operations/memory.js';
import { withInput } from '../../option-values.js';
import { linkInput } from './inputs.js';

/** `ratchet memory link <from> <to> --type T`. */
async function link(ctx: Context, input: MemoryLinkInput): Promise<number> {
  const linked = await linkMemory(ctx, input);
  const result = memoryLinkResult(linked);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`linked ${linked.from} -[${linked.type}]-> ${linked.to}`);
  return result.exitCode;
}
export default withInput(linkInput, link);
