import { resolve as resolvePath } from 'node:path';
import { resolveLesson } from '@ratchet/self-correction';
import { requireUser } from '../../actor.js';
import type { CommandAction } from '../../program.js';
import { reportingProblems } from '../protocol/shared.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';

/** `ratchet lessons resolve <lesson_id> [--note TEXT]` */
const resolveCmd: CommandAction = async (ctx, args, options) => {
  requireUser(ctx, 'ratchet lessons resolve (deciding a lesson needs no protocol change)');
  const path = resolvePath(ctx.cwd, (options.lessons as string | undefined) ?? 'knowledge_core/lessons.jsonl');
  const lesson = await resolveLesson(path, args[0]!, (options.note as string | undefined) ?? '', new Date().toISOString());
  if (lesson === undefined) throw new CliError(`no lesson "${args[0]}" (see \`ratchet lessons list\`)`, { code: 'unknown-lesson' });
  if (ctx.json) ctx.emitJson({ ok: true, lesson });
  else ctx.out(`${lesson.lesson_id}: resolved`);
  return EXIT_OK;
};
export default reportingProblems(resolveCmd);
