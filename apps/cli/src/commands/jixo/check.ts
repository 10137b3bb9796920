import { readTextFile } from '@ratchet/store';
import { auditLog, jixoFileKind, parseJob, parseLog } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { at } from './shared.js';

/** `ratchet jixo check <file>`: every diagnostic of a log or job file, with its line. */
export default async function check(ctx: Context, args: string[]): Promise<number> {
  const file = args[0]!;
  const { text } = await readTextFile(at(ctx, file));
  // `*.task.md` is JIXO v1's job file: a goal, not a log.
  const isJob = jixoFileKind(file) === 'job';
  const { value, diagnostics } = isJob ? parseJob(text) : parseLog(text);
  // A readable log must also be an honest one: every Completed/Failed status backed by its entry.
  if (!isJob && !diagnostics.some((d) => d.severity === 'error')) diagnostics.push(...auditLog(parseLog(text).value, text));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (ctx.json) ctx.emitJson({ ok: errors === 0, file, kind: isJob ? 'job' : 'log', diagnostics, parsed: value });
  else {
    for (const d of diagnostics) ctx.out(`${file}:${d.line}:${d.column}: ${d.severity} ${d.message} (${d.rule})`);
    if (diagnostics.length === 0) ctx.out(`${file}: ok`);
  }
  return errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
