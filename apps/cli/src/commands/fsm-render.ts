import { toDot, toMermaid } from '@ratchet/fsm-core';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { loadFsmFileAny, requireMachine } from '../fsm-file.js';

/** `ratchet fsm render <file> --format mermaid|dot`: the diagram text on stdout. */
export default async function fsmRender(ctx: Context, [file]: string[], options: Record<string, unknown>): Promise<number> {
  if (file === undefined) throw new CliError('fsm render: missing <file>');
  const loaded = await loadFsmFileAny(ctx, file);
  const machine = requireMachine(loaded, file);
  const format = options.format === 'dot' ? 'dot' : 'mermaid';
  const text = format === 'dot' ? toDot(machine) : toMermaid(machine);
  if (ctx.json) ctx.emitJson({ ok: true, file: loaded.file, format, text });
  else ctx.io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return EXIT_OK;
}
