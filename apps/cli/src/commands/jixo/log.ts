import { addEntry, endPlannerRound, exitRefusal, formatProgress, listTasks, entryConcerns, readJobFile, recordExit, setTitle, computeProgress, type LogFile } from '@ratchet/jixo-log';
import { existsSync } from 'node:fs';
import { CliError } from '../../errors.js';
import { basename, dirname, join } from 'node:path';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { at, guard, logAt, now, plannerGate, userActs } from './shared.js';

/** `ratchet jixo log add | title | progress | exit`. */
export default async function logCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, title] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  const ctxNow = { now: now() };
  const job = typeof options.job === 'string' ? options.job : (ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, ''));
  // Triage needs the job file (answered clarifications); read it before taking the log lock.
  const code = verb === 'exit' ? (Number(options.code) as 0 | 1 | 2) : undefined;
  const exitGate = code !== undefined && code !== 2 && !userActs(ctx) ? await exitGateFor(ctx, path, runner!, code) : undefined;
  const store = await logAt(ctx, path);
  const gate = verb === 'add' || verb === 'title' ? await plannerGate(ctx, store, runner, path) : undefined;
  const { log } = await guard(path, () =>
    store.update(
      (l) => {
        gate?.(l);
        if (verb === 'add') return plannerEntry(l, { job, role: String(options.role), objective: String(options.objective), result: String(options.result), summary: String(options.summary), runner }, ctxNow, path);
        if (verb === 'title') return setTitle(l, title!, ctxNow);
        if (verb === 'exit') {
          const refused = exitGate?.(l);
          if (refused !== undefined) throw new CliError(refused, { code: 'not-planner', file: path, exitCode: EXIT_PROBLEMS });
          return recordExit(l, { code: code!, reason: String(options.reason), runner: runner!, time: ctxNow.now }, ctxNow);
        }
        // progress: rewrite only when it changed
        return computeProgress(l) === l.frontMatter.progress ? undefined : { ...l, frontMatter: { ...l.frontMatter, progress: computeProgress(l), updateTime: ctxNow.now } };
      },
      { ...(runner !== undefined ? { runner } : {}), userActs: userActs(ctx) },
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
 * `log add` writes a Planner's record of its round, and ends that round. Entries about a roadmap
 * task come only with the task's transition (`task complete|fail|pause|cancel|unblock` write them):
 * an entry added on its own would back a status nobody changed through Ratchet, or clear a blocker.
 */
function plannerEntry(log: LogFile, input: { job: string; role: string; objective: string; result: string; summary: string; runner: string | undefined }, ctxNow: { now: string }, path: string): LogFile {
  const refuse = (message: string): CliError => new CliError(message, { code: 'entry-without-transition', file: path, exitCode: EXIT_PROBLEMS });
  if (input.role !== 'Planner') throw refuse('log add writes Planner entries only: a Runner\'s entry comes with its task\'s transition (ratchet jixo task complete|fail|pause)');
  const task = listTasks(log).find((t) => entryConcerns(input.objective.trim(), t));
  if (task !== undefined) throw refuse(`the objective is about task ${task.id}: entries about a task come only with its transition (ratchet jixo task complete|fail|pause|cancel|unblock)`);
  const next = addEntry(log, { job: input.job, role: input.role, objective: input.objective, result: input.result, summary: input.summary, ...(input.runner !== undefined ? { runner: input.runner } : {}) }, ctxNow);
  // The Planner's record is the last commit of its round (Protocol 3): another runner may plan next.
  return input.runner === undefined ? next : endPlannerRound(next, input.runner);
}

/**
 * An agent records exit 1 (stops the whole job) only as the elected Planner or when triage itself
 * decides the dead end, and exit 0 (ends the job) only when triage decides it. The decision is made
 * on the log as read under the lock, with the job file the outer loop named (RATCHET_JIXO_JOB_FILE)
 * or the one beside the log.
 */
async function exitGateFor(ctx: Context, logPath: string, runner: string, code: 0 | 1): Promise<(log: LogFile) => string | undefined> {
  const named = ctx.io.env.RATCHET_JIXO_JOB_FILE;
  const jobPath = named !== undefined && named !== '' ? named : join(dirname(logPath), basename(logPath).replace(/\.log\.md$/i, '.job.md'));
  if (!existsSync(jobPath)) throw new CliError(`exit code ${code} from an agent needs its job file to check Protocol 0 decides it: ${jobPath} does not exist (set RATCHET_JIXO_JOB_FILE)`, { code: 'not-planner', file: logPath, exitCode: EXIT_PROBLEMS });
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const active = (ctx.io.env.RATCHET_JIXO_ACTIVE ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return (log) => exitRefusal({ log, job, runner, active }, code);
}
