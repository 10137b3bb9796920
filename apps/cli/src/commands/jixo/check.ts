import { readTextFile } from '@ratchet/store';
import { inspectLogFile, jixoFileKind, parseJob, type Diagnostic } from '@ratchet/jixo-log';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { at } from './shared.js';

/**
 * `ratchet jixo check <file>`: every diagnostic of a log or job file, with its line. A log gets the
 * audit every other command runs before it acts (auditLogFile): a change made outside Ratchet since
 * its last good version (a status without its entry, an entry forged or edited) is an error here
 * exactly where triage, run and the task commands refuse it.
 */
export default async function check(ctx: Context, args: string[]): Promise<number> {
  const file = args[0]!;
  const path = at(ctx, file);
  // `*.task.md` is JIXO v1's job file: a goal, not a log.
  const isJob = jixoFileKind(file) === 'job';
  let value: unknown;
  let diagnostics: Diagnostic[];
  let tracking: { tracked: boolean; edited: boolean; writtenAt: string | null } | undefined;
  if (isJob) ({ value, diagnostics } = parseJob((await readTextFile(path)).text));
  else {
    const audit = await inspectLogFile(path);
    ({ log: value, diagnostics } = audit);
    tracking = { tracked: audit.tracked, edited: audit.edited, writtenAt: audit.writtenAt ?? null };
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (ctx.json) ctx.emitJson({ ok: errors === 0, file, kind: isJob ? 'job' : 'log', diagnostics, parsed: value, ...(tracking !== undefined ? { tracking } : {}) });
  else {
    for (const d of diagnostics) ctx.out(`${file}:${d.line}:${d.column}: ${d.severity} ${d.message} (${d.rule})`);
    if (diagnostics.length === 0) ctx.out(`${file}: ok`);
  }
  return errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
