import { addEntry, errorExitRefusal, formatProgress, readJobFile, recordExit, setTitle, computeProgress, type LogFile } from '@ratchet/jixo-log';
import { existsSync } from 'node:fs';
import { pinnedActor } from '../../actor.js';
import { CliError } from '../../errors.js';
import { basename, dirname, join } from 'node:path';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { at, guard, logAt, now } from './shared.js';

/** `ratchet jixo log add | title | progress | exit`. */
export default async function logCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, title] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  const ctxNow = { now: now() };
  const job = typeof options.job === 'string' ? options.job : (ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, ''));
  // Triage needs the job file (answered clarifications); read it before taking the log lock.
  const gate = verb === 'exit' && options.code === '1' && pinnedActor(ctx) === 'agent' ? await errorExitGate(ctx, path, runner!) : undefined;
  const store = await logAt(ctx, path);
  const { log } = await guard(path, () =>
    store.update(
      (l) => {
        if (verb === 'add') return addEntry(l, { job, role: String(options.role), objective: String(options.objective), result: String(options.result), summary: String(options.summary) }, ctxNow);
        if (verb === 'title') return setTitle(l, title!, ctxNow);
        if (verb === 'exit') {
          const refused = gate?.(l);
          if (refused !== undefined) throw new CliError(refused, { code: 'not-planner', file: path, exitCode: EXIT_PROBLEMS });
        }
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

/**
 * Exit code 1 stops the whole job: an agent records it only as the Planner (or when triage itself
 * decides the dead end). The decision is made on the log as read under the lock, with the job file
 * the outer loop named (RATCHET_JIXO_JOB_FILE) or the one beside the log.
 */
async function errorExitGate(ctx: Context, logPath: string, runner: string): Promise<(log: LogFile) => string | undefined> {
  const named = ctx.io.env.RATCHET_JIXO_JOB_FILE;
  const jobPath = named !== undefined && named !== '' ? named : join(dirname(logPath), basename(logPath).replace(/\.log\.md$/i, '.job.md'));
  if (!existsSync(jobPath)) throw new CliError(`exit code 1 from an agent needs its job file to check it is the Planner: ${jobPath} does not exist (set RATCHET_JIXO_JOB_FILE)`, { code: 'not-planner', file: logPath, exitCode: EXIT_PROBLEMS });
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const active = (ctx.io.env.RATCHET_JIXO_ACTIVE ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return (log) => errorExitRefusal({ log, job, runner, active });
}
