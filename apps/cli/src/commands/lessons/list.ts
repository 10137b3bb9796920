import { resolve } from 'node:path';
import { readLessons } from '@ratchet/self-correction';
import type { CommandAction } from '../../program.js';
import { reportingProblems } from '../protocol/shared.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_USAGE } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';

const STATUSES = ['pending', 'applied', 'failed', 'manual', 'resolved'];

/** `ratchet lessons list [--status S]` */
const list: CommandAction = async (ctx, _args, options) => {
  const status = options.status as string | undefined;
  if (status !== undefined && !STATUSES.includes(status)) throw new CliError(`--status must be one of ${STATUSES.join(', ')}`);
  const path = resolve(ctx.cwd, (options.lessons as string | undefined) ?? 'knowledge_core/lessons.jsonl');
  const file = await readLessons(path);
  const lessons = file.lessons.filter((l) => status === undefined || l.status === status);
  if (ctx.json) ctx.emitJson({ ok: file.problems.length === 0, lessons, problems: file.problems.map((p) => ({ file: displayPath(ctx, path), ...p })) });
  else {
    if (lessons.length === 0) ctx.out(`no ${status ?? ''} lessons in ${displayPath(ctx, path)}`.replace('  ', ' '));
    for (const l of lessons) {
      const last = l.history[l.history.length - 1];
      const text = l.insight || (l.action.command === 'manual' ? l.action.parameters.text : '');
      ctx.out(`${l.lesson_id}  ${l.status.padEnd(8)}  ${l.action.command.padEnd(19)}  ${text}${last !== undefined && l.status === 'failed' ? `  (${last.reason})` : ''}`);
    }
    for (const p of file.problems) ctx.io.stderr(`${displayPath(ctx, path)}:${p.line}: ${p.message} (line kept as is; fix or remove it)\n`);
  }
  // The good lessons are listed; a corrupt line is still an input error.
  return file.problems.length > 0 ? EXIT_USAGE : EXIT_OK;
};
export default reportingProblems(list);
