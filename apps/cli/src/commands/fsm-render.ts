import { toDot, toMermaid } from '@ratchet/fsm-core';
import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { loadFsmFileAny, requireMachine } from '../fsm-file.js';
import { withInput } from '../option-values.js';
import { fsmRenderInput, type FsmRenderInput } from './fsm-inputs.js';

/** `ratchet fsm render <file> --format mermaid|dot`: the diagram text on stdout. */
async function fsmRender(ctx: Context, { file, format }: FsmRenderInput): Promise<number> {
  const loaded = await loadFsmFileAny(ctx, file);
  const machine = requireMachine(loaded, file);
  const text = format === 'dot' ? toDot(machine) : toMermaid(machine);
  if (ctx.json) ctx.emitJson({ ok: true, file: loaded.file, format, text });
  else ctx.io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return EXIT_OK;
}
export default withInput(fsmRenderInput, fsmRender);
