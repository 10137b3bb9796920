import { toDot, toMermaid } from '@ratchet/fsm-core';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { loadFsmFile } from '../fsm-file.js';

/** `ratchet fsm render <file> --format mermaid|dot`: the diagram text on stdout. */
export default async function fsmRender(ctx: Context, [file]: string[], options: Record<string, unknown>): Promise<number> {
  if (file === undefined) throw new CliError('fsm render: missing <file>');
  const loaded = await loadFsmFile(ctx, file);
  if (!loaded.machine) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new CliError(`cannot render: the definition has errors (first: ${first?.message ?? 'unknown'}); run \`ratchet fsm check ${file}\``, {
      exitCode: EXIT_PROBLEMS,
      code: 'invalid-fsm',
      file: loaded.file,
      ...(first?.line !== undefined ? { line: first.line, column: first.column ?? 1 } : {}),
    });
  }
  const format = options.format === 'dot' ? 'dot' : 'mermaid';
  const text = format === 'dot' ? toDot(loaded.machine) : toMermaid(loaded.machine);
  if (ctx.json) ctx.emitJson({ ok: true, file: loaded.file, format, text });
  else ctx.io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  return EXIT_OK;
}
