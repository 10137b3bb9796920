import { addTask, finishTask, listTasks, lockTask, readLogFile, setTaskStatus, updateLogFile, formatProgress } from '@ratchet/jixo-log';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { at, guard, now } from './shared.js';

/** `ratchet jixo task lock|complete|fail|pause|add|retry|cancel|list`: each change is one locked, atomic write. */
export default async function task(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, id] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  if (verb === 'list') {
    const { log } = await guard(path, () => readLogFile(path));
    const tasks = listTasks(log).map((t) => ({ id: t.id, text: t.text, status: t.status, runner: t.runner ?? null, dependsOn: t.dependsOn ?? [] }));
    if (ctx.json) ctx.emitJson({ ok: true, file, progress: log.frontMatter.progress, tasks });
    else {
      for (const t of tasks) ctx.out(`${t.status!.padEnd(9)} ${t.text}${t.runner ? `  [${t.runner}]` : ''}`);
      ctx.out(`progress ${formatProgress(log.frontMatter.progress)}`);
    }
    return EXIT_OK;
  }
  const ctxNow = { now: now() };
  const job = ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, '');
  const { log } = await guard(path, () =>
    updateLogFile(
      path,
      (l) => {
        switch (verb) {
          case 'lock':
            return lockTask(l, id!, runner!, ctxNow);
          case 'complete':
          case 'fail':
          case 'pause':
            return finishTask(l, { id: id!, runner: runner!, job, outcome: verb === 'complete' ? 'Completed' : verb === 'fail' ? 'Failed' : 'Pending', summary: String(options.summary), ...(typeof options.objective === 'string' ? { objective: options.objective } : {}) }, ctxNow);
          case 'retry':
            return setTaskStatus(l, id!, 'Pending', ctxNow);
          case 'cancel':
            return setTaskStatus(l, id!, 'Cancelled', ctxNow);
          default: {
            const deps = typeof options.dependsOn === 'string' ? options.dependsOn.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
            return addTask(l, { title: String(options.title), phase: options.phase === true, ...(typeof options.id === 'string' ? { id: options.id } : {}), ...(typeof options.parent === 'string' ? { parent: options.parent } : {}), ...(deps ? { dependsOn: deps } : {}) }, ctxNow);
          }
        }
      },
      runner !== undefined ? { runner } : {},
    ),
  );
  const target = verb === 'add' ? listTasks(log).at(-1) : listTasks(log).find((t) => t.id === id);
  if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, task: target ?? null, progress: log.frontMatter.progress, entry: ['complete', 'fail', 'pause'].includes(verb) ? log.workLog[0] : undefined });
  else ctx.out(`${verb}: ${target ? `${target.text} -> ${target.status ?? 'phase'}` : 'done'} (progress ${formatProgress(log.frontMatter.progress)})`);
  return EXIT_OK;
}
