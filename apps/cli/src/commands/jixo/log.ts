import { addEntry, formatProgress, recordExit, setTitle, updateLogFile, computeProgress } from '@ratchet/jixo-log';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { at, guard, now } from './shared.js';

/** `ratchet jixo log add | title | progress | exit`. */
export default async function logCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, title] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  const ctxNow = { now: now() };
  const job = typeof options.job === 'string' ? options.job : (ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, ''));
  const { log } = await guard(path, () =>
    updateLogFile(
      path,
      (l) => {
        if (verb === 'add') return addEntry(l, { job, role: String(options.role), objective: String(options.objective), result: String(options.result), summary: String(options.summary) }, ctxNow);
        if (verb === 'title') return setTitle(l, title!, ctxNow);
        if (verb === 'exit') return recordExit(l, { code: Number(options.code) as 0 | 1 | 2, reason: String(options.reason), runner: runner!, time: ctxNow.now }, ctxNow);
        // progress: rewrite only when it changed
        return computeProgress(l) === l.frontMatter.progress ? undefined : { ...l, frontMatter: { ...l.frontMatter, progress: computeProgress(l), updateTime: ctxNow.now } };
      },
      runner !== undefined ? { runner } : {},
    ),
  );
  if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, progress: log.frontMatter.progress, title: log.frontMatter.title, exit: log.frontMatter.exit ?? null, entry: verb === 'add' ? log.workLog[0] : undefined });
  else if (verb === 'progress') ctx.out(formatProgress(log.frontMatter.progress));
  else if (verb === 'exit') ctx.out(`recorded exit ${String(options.code)}: ${String(options.reason)}`);
  else if (verb === 'title') ctx.out(`title: ${log.frontMatter.title}`);
  else ctx.out(`added Log ${log.workLog[0]!.number}`);
  return EXIT_OK;
}
