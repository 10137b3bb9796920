import { DEFAULT_LEASE_MS, addTask, finishTask, listTasks, lockTask, removeItem, renameItem, setDependsOn, setTaskStatus, unblockTask, formatProgress, type LogFile, type RoadmapItem } from '@ratchet/jixo-log';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { leaseOption } from '../../lease-option.js';
import { at, guard, logAt, now, plannerGate, userActs } from './shared.js';

/**
 * `ratchet jixo task lock|complete|fail|pause|add|retry|cancel|unblock|edit|depends|remove|list`: each
 * change is one locked, atomic write. With --runner, a runner holding the log lock (`jixo lock`, as a
 * Planner does around a re-plan) writes under its own lock instead of waiting for it.
 */
export default async function task(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [verb, file, id] = args as [string, string, string | undefined];
  const path = at(ctx, file);
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  const store = await logAt(ctx, path);
  if (verb === 'list') {
    const { log } = await guard(path, () => store.read());
    const tasks = listTasks(log).map((t) => ({ id: t.id, text: t.text, status: t.status, runner: t.runner ?? null, leaseUntil: t.leaseUntil ?? null, dependsOn: t.dependsOn ?? [] }));
    if (ctx.json) ctx.emitJson({ ok: true, file, progress: log.frontMatter.progress, tasks });
    else {
      for (const t of tasks) ctx.out(`${t.status!.padEnd(9)} ${t.text}${t.runner ? `  [${t.runner}${t.leaseUntil ? ` until ${t.leaseUntil}` : ''}]` : ''}`);
      ctx.out(`progress ${formatProgress(log.frontMatter.progress)}`);
    }
    return EXIT_OK;
  }
  const job = ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, '');
  const ctxNow = { now: now(), job };
  // Everything but a runner's own task moves (lock, complete, fail, pause) changes the plan.
  const gate = PLANNER_MOVES.has(verb) ? await plannerGate(ctx, store, runner, path) : undefined;
  const { log } = await guard(path, () =>
    store.update(
      (l) => {
        gate?.(l);
        switch (verb) {
          case 'lock':
            return lockTask(l, id!, runner!, { ...ctxNow, leaseMs: leaseOption(options.lease) ?? DEFAULT_LEASE_MS });
          case 'complete':
          case 'fail':
          case 'pause':
            return finishTask(l, { id: id!, runner: runner!, job, outcome: verb === 'complete' ? 'Completed' : verb === 'fail' ? 'Failed' : 'Pending', summary: String(options.summary), ...(typeof options.objective === 'string' ? { objective: options.objective } : {}), ...(typeof options.blocker === 'string' ? { blocker: options.blocker } : {}) }, ctxNow);
          case 'unblock':
            return unblockTask(l, id!, { job, summary: String(options.summary), ...(runner !== undefined ? { runner } : {}) }, ctxNow);
          case 'edit':
            return renameItem(l, id!, String(options.title), ctxNow);
          case 'depends':
            return setDependsOn(l, id!, ids(options.on) ?? [], ctxNow);
          case 'remove':
            return removeItem(l, id!, ctxNow);
          case 'retry':
            return setTaskStatus(l, id!, 'Pending', ctxNow);
          case 'cancel':
            return setTaskStatus(l, id!, 'Cancelled', { ...ctxNow, ...(runner !== undefined ? { runner } : {}), ...(typeof options.summary === 'string' ? { summary: options.summary } : {}) });
          default: {
            const deps = ids(options.dependsOn);
            return addTask(l, { title: String(options.title), phase: options.phase === true, ...(typeof options.id === 'string' ? { id: options.id } : {}), ...(typeof options.parent === 'string' ? { parent: options.parent } : {}), ...(deps ? { dependsOn: deps } : {}) }, ctxNow);
          }
        }
      },
      { ...(runner !== undefined ? { runner } : {}), userActs: userActs(ctx) },
    ),
  );
  // `add` names its item by --id or, unnumbered, by its title; a phase is no task, so look at every item.
  const target = findItem(log, verb === 'add' ? (typeof options.id === 'string' ? options.id : String(options.title).trim()) : verb === 'edit' ? editedId(id!, String(options.title)) : id!);
  if (ctx.json) ctx.emitJson({ ok: true, file, action: verb, task: target ?? null, progress: log.frontMatter.progress, entry: ['complete', 'fail', 'pause', 'unblock'].includes(verb) ? log.workLog[0] : undefined });
  else ctx.out(`${verb}: ${target ? `${target.text} -> ${target.status ?? 'phase'}` : 'done'} (progress ${formatProgress(log.frontMatter.progress)})`);
  return EXIT_OK;
}

const PLANNER_MOVES: ReadonlySet<string> = new Set(['add', 'retry', 'cancel', 'depends', 'edit', 'remove', 'unblock']);

function ids(value: unknown): string[] | undefined {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

/** An unnumbered item's id is its text, so after `edit` it is the new title. */
function editedId(id: string, title: string): string {
  return /^\d+(?:\.\d+)*$/.test(id) ? id : title.trim();
}

function findItem(log: LogFile, id: string): RoadmapItem | undefined {
  const visit = (xs: RoadmapItem[]): RoadmapItem | undefined => {
    for (const x of xs) {
      const hit = x.id === id ? x : visit(x.children);
      if (hit) return hit;
    }
    return undefined;
  };
  return visit(log.roadmap);
}
