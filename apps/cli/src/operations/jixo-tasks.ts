/**
 * The JIXO roadmap as typed operations (`ratchet jixo task ...`; the MCP tools `jixo_task_list`,
 * `jixo_task_lock`, `jixo_task_finish`, `jixo_task_add`, `jixo_task_edit`): each change is one
 * locked, atomic write of the log, and the document `--json` prints for it. With a runner, a runner
 * holding the log lock (`jixo lock`, as a Planner does around a re-plan) writes under its own lock
 * instead of waiting for it.
 */
import { DEFAULT_LEASE_MS, addTask, finishTask, listTasks, lockTask, removeItem, renameItem, setDependsOn, setTaskStatus, unblockTask, type LogFile, type RoadmapItem, type WorkLogEntry } from '@ratchet/jixo-log';
import { basename } from 'node:path';
import { at, guard, logAt, now, plannerGate, userActs } from '../commands/jixo/shared.js';
import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import type { OperationResult } from './invoke.js';
import type { JixoLogInput, JixoTaskMoveInput, JixoTaskVerb } from './jixo-input.js';

export interface ListedTask {
  id: string;
  text: string;
  status: string | undefined;
  runner: string | null;
  leaseUntil: string | null;
  dependsOn: string[];
}

export interface TaskList {
  file: string;
  progress: number;
  tasks: ListedTask[];
}

/** `jixo task list <log>`: the tasks with status and runner. */
export async function listJixoTasks(ctx: Context, input: JixoLogInput): Promise<TaskList> {
  const path = at(ctx, input.log);
  const store = await logAt(ctx, path);
  const { log } = await guard(path, () => store.read());
  const tasks = listTasks(log).map((t) => ({ id: t.id, text: t.text, status: t.status, runner: t.runner ?? null, leaseUntil: t.leaseUntil ?? null, dependsOn: t.dependsOn ?? [] }));
  return { file: input.log, progress: log.frontMatter.progress, tasks };
}

export function listJixoTasksResult(list: TaskList): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, file: list.file, progress: list.progress, tasks: list.tasks } };
}

export interface MovedTask {
  file: string;
  verb: JixoTaskVerb;
  /** The item the move is about, as it is now (undefined once removed). */
  target: RoadmapItem | undefined;
  progress: number;
  /** The Work Log entry the move wrote (complete, fail, pause, unblock). */
  entry: WorkLogEntry | undefined;
}

/** Everything but a runner's own task moves (lock, complete, fail, pause) changes the plan. */
const PLANNER_MOVES: ReadonlySet<JixoTaskVerb> = new Set(['add', 'retry', 'cancel', 'depends', 'edit', 'remove', 'unblock']);
const WRITES_ENTRY: ReadonlySet<JixoTaskVerb> = new Set(['complete', 'fail', 'pause', 'unblock']);

/** `jixo task lock|complete|fail|pause|add|retry|cancel|unblock|edit|depends|remove <log>`. */
export async function moveJixoTask(ctx: Context, input: JixoTaskMoveInput): Promise<MovedTask> {
  const path = at(ctx, input.log);
  const { runner } = input;
  const store = await logAt(ctx, path);
  const job = ctx.io.env.RATCHET_JIXO_JOB ?? basename(path).replace(/\.log\.md$/i, '');
  const ctxNow = { now: now(), job };
  const gate = PLANNER_MOVES.has(input.verb) ? await plannerGate(ctx, store, runner, path) : undefined;
  const change = (l: LogFile): LogFile => {
    switch (input.verb) {
      case 'lock':
        return lockTask(l, input.id, input.runner, { ...ctxNow, leaseMs: input.leaseMs ?? DEFAULT_LEASE_MS });
      case 'complete':
      case 'fail':
      case 'pause':
        return finishTask(l, { id: input.id, runner: input.runner, job, outcome: input.verb === 'complete' ? 'Completed' : input.verb === 'fail' ? 'Failed' : 'Pending', summary: input.summary, ...(input.objective !== undefined ? { objective: input.objective } : {}), ...(input.blocker !== undefined ? { blocker: input.blocker } : {}) }, ctxNow);
      case 'unblock':
        return unblockTask(l, input.id, { job, summary: input.summary, ...(input.runner !== undefined ? { runner: input.runner } : {}) }, ctxNow);
      case 'edit':
        return renameItem(l, input.id, input.title, ctxNow);
      case 'depends':
        return setDependsOn(l, input.id, ids(input.on), ctxNow);
      case 'remove':
        return removeItem(l, input.id, ctxNow);
      case 'retry':
        return setTaskStatus(l, input.id, 'Pending', ctxNow);
      case 'cancel':
        return setTaskStatus(l, input.id, 'Cancelled', { ...ctxNow, ...(input.runner !== undefined ? { runner: input.runner } : {}), ...(input.summary !== undefined ? { summary: input.summary } : {}) });
      case 'add': {
        const deps = input.dependsOn === undefined ? undefined : ids(input.dependsOn);
        return addTask(l, { title: input.title, phase: input.phase === true, ...(input.id !== undefined ? { id: input.id } : {}), ...(input.parent !== undefined ? { parent: input.parent } : {}), ...(deps ? { dependsOn: deps } : {}) }, ctxNow);
      }
    }
  };
  const { log } = await guard(path, () =>
    store.update(
      (l) => {
        gate?.(l);
        return change(l);
      },
      { ...(runner !== undefined ? { runner } : {}), userActs: userActs(ctx) },
    ),
  );
  // `add` names its item by its id or, unnumbered, by its title; a phase is no task, so look at every item.
  const targetId = input.verb === 'add' ? (input.id ?? input.title.trim()) : input.verb === 'edit' ? editedId(input.id, input.title) : input.id;
  return { file: input.log, verb: input.verb, target: findItem(log, targetId), progress: log.frontMatter.progress, entry: WRITES_ENTRY.has(input.verb) ? log.workLog[0] : undefined };
}

export function moveJixoTaskResult(moved: MovedTask): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, file: moved.file, action: moved.verb, task: moved.target ?? null, progress: moved.progress, entry: moved.entry } };
}

/** Dependencies as the command line spells them (`1.1, 1.2`), however listed: trimmed, empty ones dropped. */
function ids(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
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
