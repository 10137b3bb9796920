/**
 * The JIXO log's own records as typed operations (`ratchet jixo log add|title|progress|exit`; the
 * MCP tools `jixo_log_add`, `jixo_task_edit` with action title, `jixo_exit`): each one locked, atomic
 * write of the log, and the document `--json` prints for it.
 */
import { addEntry, endPlannerRound, exitRefusal, listTasks, entryConcerns, readJobFile, recordExit, setTitle, computeProgress, type LogFile, type TasksExit, type WorkLogEntry } from '@ratchet/jixo-log';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { at, guard, logAt, now, plannerGate, userActs } from '../commands/jixo/shared.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import type { OperationResult } from './invoke.js';
import type { JixoLogChangeInput } from './jixo-input.js';

export interface ChangedLog {
  file: string;
  input: JixoLogChangeInput;
  progress: number;
  title: string;
  exit: TasksExit | null;
  /** The Planner's entry `log add` wrote. */
  entry: WorkLogEntry | undefined;
}

/** `jixo log add | title | progress | exit <log>`. */
export async function changeJixoLog(ctx: Context, input: JixoLogChangeInput): Promise<ChangedLog> {
  const path = at(ctx, input.log);
  const runner = input.verb === 'progress' ? undefined : input.runner;
  const ctxNow = { now: now() };
  // Triage needs the job file (answered clarifications); read it before taking the log lock.
  const exitGate = input.verb === 'exit' && input.code !== 2 && !userActs(ctx) ? await exitGateFor(ctx, path, input.runner, input.code) : undefined;
  const store = await logAt(ctx, path);
  const gate = input.verb === 'add' || input.verb === 'title' ? await plannerGate(ctx, store, runner, path) : undefined;
  const { log } = await guard(path, () =>
    store.update(
      (l) => {
        gate?.(l);
        switch (input.verb) {
          case 'add': {
            const job = input.job ?? ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, '');
            return plannerEntry(l, { job, role: input.role ?? 'Planner', objective: input.objective, result: input.result ?? 'Succeeded', summary: input.summary, runner }, ctxNow, path);
          }
          case 'title':
            return setTitle(l, input.title, ctxNow);
          case 'exit': {
            const refused = exitGate?.(l);
            if (refused !== undefined) throw new CliError(refused, { code: 'not-planner', file: path, exitCode: EXIT_PROBLEMS });
            return recordExit(l, { code: input.code, reason: input.reason, runner: input.runner, time: ctxNow.now }, ctxNow);
          }
          case 'progress':
            // Rewrite only when it changed.
            return computeProgress(l) === l.frontMatter.progress ? undefined : { ...l, frontMatter: { ...l.frontMatter, progress: computeProgress(l), updateTime: ctxNow.now } };
        }
      },
      { ...(runner !== undefined ? { runner } : {}), userActs: userActs(ctx) },
    ),
  );
  return { file: input.log, input, progress: log.frontMatter.progress, title: log.frontMatter.title, exit: log.frontMatter.exit ?? null, entry: input.verb === 'add' ? log.workLog[0] : undefined };
}

export function changeJixoLogResult(changed: ChangedLog): OperationResult {
  const { file, progress, title, exit, entry } = changed;
  return { exitCode: EXIT_OK, document: { ok: true, file, action: changed.input.verb, progress, title, exit, entry } };
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
