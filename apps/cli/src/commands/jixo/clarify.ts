import { addClarification, listTasks, logPathFor, readJobFile, removeClarification, updateJobFile } from '@ratchet/jixo-log';
import { CliError } from '../../errors.js';
import type { Context } from '../../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../exit-codes.js';
import { at, guard, logAt } from './shared.js';

/** `ratchet jixo clarify add|list|remove <job>`. */
export default async function clarify(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, id] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  if (verb === 'list') {
    const { job } = await guard(path, () => readJobFile(path));
    if (ctx.json) ctx.emitJson({ ok: true, file, clarifications: job.clarifications });
    else if (job.clarifications.length === 0) ctx.out('no clarification requests');
    else for (const c of job.clarifications) ctx.out(`${c.id}  ${c.answered ? 'answered' : 'waiting '}  ${c.question.split('\n')[0]}${c.answered ? `\n    -> ${c.response.split('\n')[0]}` : ''}`);
    return EXIT_OK;
  }
  if (verb === 'add') await defaultPlanCommitted(ctx, path);
  const job = await guard(path, () => updateJobFile(path, (j) => (verb === 'add' ? addClarification(j, { id: String(options.id), question: String(options.question) }) : removeClarification(j, id!))));
  if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, clarifications: job.clarifications });
  else ctx.out(verb === 'add' ? `added clarification ${String(options.id)} to ${file}` : `removed clarification ${id!} from ${file}`);
  return EXIT_OK;
}

/**
 * Protocol 5: a runner asks only after committing a best-effort default plan, so the next runners
 * make progress while nobody answers (and the request's text says a default plan was followed). A
 * request on a log with no task left to run would be a false statement and a stalled job.
 */
async function defaultPlanCommitted(ctx: Context, jobPath: string): Promise<void> {
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const logPath = logPathFor(jobPath, job);
  const store = await logAt(ctx, logPath);
  const read = await guard(logPath, () => store.read()).catch((err: unknown) => {
    // No log yet: no plan either.
    if ((err as { code?: unknown }).code === 'not-found') return undefined;
    throw err;
  });
  if (read !== undefined && listTasks(read.log).some((t) => t.status !== 'Cancelled')) return;
  throw new CliError(`commit a default plan before asking (Protocol 5): the roadmap of ${logPath} has no task, and the request tells the user a default plan is being followed. Add best-effort tasks (ratchet jixo task add), then ask`, { code: 'no-default-plan', file: jobPath, exitCode: EXIT_PROBLEMS });
}
