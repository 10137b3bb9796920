/**
 * Reading FTL's plan.json contract: `tasks[].seq`, `delta`, `verify` required (`objective` too in
 * FTL's docs, but its add_tasks never read it, so it is optional here); `type`
 * SPEC|BUILD|VERIFY; `depends` "none", one seq or a list; "001" and 1 are the same seq. Every problem
 * is collected (shape, unsafe paths, duplicate/unknown/self dependencies, every cycle with its path),
 * each with a JSON pointer and, when the text is given, a line and column.
 */
import { locate } from '@ratchet/store';
import { checkGraph } from './graph.js';
import type { PlanProblem, PlanRule } from './errors.js';
import { unsafePathReason } from './paths.js';
import { formatSeq, normalizeSeq } from './seq.js';
import { SLUG_PATTERN, TASK_TYPES, type Idioms, type Task, type TaskType } from './types.js';


/** A task as a plan gives it: the fields a planner sets (the rest are the campaign's to keep). `depends` sorted ascending, no duplicates. */
export type PlanTask = Pick<Task, 'seq' | 'slug' | 'type' | 'description' | 'delta' | 'verify' | 'budget' | 'preflight' | 'depends'>;

export interface Plan {
  objective: string;
  framework: string | null;
  idioms: Idioms;
  tasks: PlanTask[];
}

export interface CheckPlanOptions {
  /** The file text the value was parsed from: problems get a line and column. */
  text?: string;
  /** Tasks already in the campaign: new seqs must differ, dependencies may point at them. */
  existing?: readonly Pick<Task, 'seq' | 'depends'>[];
  /** Why a (lexically safe) delta path leads out of the project on disk, e.g. through a symbolic link; the I/O layer passes it. */
  outside?: (path: string) => string | undefined;
}

export interface CheckPlanResult {
  /** Present when there are no problems. */
  plan?: Plan;
  problems: PlanProblem[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

export function checkPlan(raw: unknown, options: CheckPlanOptions = {}): CheckPlanResult {
  const problems: PlanProblem[] = [];
  const add = (rule: PlanRule, pointer: string, message: string, extra: Partial<PlanProblem> = {}): void => {
    const p: PlanProblem = { rule, pointer, message, ...extra };
    if (options.text !== undefined) {
      const at = locate(options.text, pointer);
      if (at !== undefined) {
        p.line = at.line;
        p.column = at.column;
      }
    }
    problems.push(p);
  };
  if (!isObject(raw)) {
    add('invalid', '', `a plan must be a JSON object with "objective" and "tasks", found ${describe(raw)}`);
    return { problems };
  }
  // FTL's add_tasks reads only the tasks (the campaign already has its objective): a plan without
  // "objective" is accepted as it accepts it. One that is there must be a non-empty string.
  const objective = own(raw, 'objective') ?? '';
  if (typeof objective !== 'string' || (own(raw, 'objective') !== undefined && objective.trim() === '')) add('invalid', '/objective', `"objective" must be a non-empty string when given, found ${describe(objective)}`);
  const framework = own(raw, 'framework');
  if (framework !== undefined && framework !== null && typeof framework !== 'string') add('invalid', '/framework', `"framework" must be a string or null, found ${describe(framework)}`);
  const idioms: Idioms = { required: [], forbidden: [] };
  const rawIdioms = own(raw, 'idioms');
  if (rawIdioms !== undefined) {
    if (!isObject(rawIdioms)) add('invalid', '/idioms', `"idioms" must be an object with "required" and "forbidden" lists, found ${describe(rawIdioms)}`);
    else for (const key of ['required', 'forbidden'] as const) {
      const list = own(rawIdioms, key);
      if (list === undefined) continue;
      if (!isStringArray(list)) add('invalid', `/idioms/${key}`, `"idioms.${key}" must be a list of strings`);
      else idioms[key] = list;
    }
  }
  const rawTasks = own(raw, 'tasks');
  const tasks: PlanTask[] = [];
  if (!Array.isArray(rawTasks)) {
    add('invalid', rawTasks === undefined ? '' : '/tasks', rawTasks === undefined ? 'missing required "tasks" (a list)' : `"tasks" must be a list, found ${describe(rawTasks)}`);
  } else {
    for (let i = 0; i < rawTasks.length; i++) {
      const t: unknown = rawTasks[i];
      // The fast path accepts the common well-formed task without allocating closures; anything
      // unusual goes through the careful reader that names every problem.
      const task = fastTask(t, options.outside) ?? readTask(t, `/tasks/${i}`, add, options.outside);
      if (task) tasks.push(task);
    }
  }
  // Graph problems only make sense once every task has read: otherwise an unknown dependency may
  // just be a task whose seq was malformed.
  if (!problems.some((p) => p.rule === 'invalid')) {
    const existing = options.existing ?? [];
    const all = [...existing, ...tasks];
    for (const p of checkGraph(all)) {
      const at = (index: number): number => index - existing.length;
      switch (p.rule) {
        case 'duplicate-seq':
          add('duplicate-seq', `/tasks/${at(p.index)}/seq`, p.first < existing.length ? `seq ${formatSeq(p.seq)} is already a task of the campaign` : `seq ${formatSeq(p.seq)} is used by more than one task ("001" and 1 are the same seq)`);
          break;
        case 'unknown-dependency':
          add('unknown-dependency', dependsPointer(rawTasks, at(p.index), p.dependency), `task ${formatSeq(p.seq)} depends on ${formatSeq(p.dependency)}, which is not a task`);
          break;
        case 'self-dependency':
          add('self-dependency', dependsPointer(rawTasks, at(p.index), p.seq), `task ${formatSeq(p.seq)} depends on itself`);
          break;
        case 'cycle': {
          const first = p.indexes.find((i) => i >= existing.length) ?? existing.length;
          add('cycle', `/tasks/${at(first)}/depends`, `dependency cycle: ${p.cycle.map(formatSeq).join(' -> ')} (each depends on the next)`, { cycle: p.cycle });
          break;
        }
      }
    }
  }
  if (problems.length > 0) return { problems };
  return { plan: { objective: (objective as string).trim(), framework: typeof framework === 'string' ? framework : null, idioms, tasks }, problems };
}

function readTask(t: unknown, at: string, add: (rule: PlanRule, pointer: string, message: string) => void, outside?: (path: string) => string | undefined): PlanTask | undefined {
  if (!isObject(t)) {
    add('invalid', at, `a task must be an object, found ${describe(t)}`);
    return undefined;
  }
  let ok = true;
  // Only shape problems drop the task; an unsafe path or a repeated dependency is reported and the
  // task still takes part in the graph checks, so every problem comes out in one run.
  const bad = (pointer: string, message: string, rule: PlanRule = 'invalid'): void => {
    if (rule === 'invalid') ok = false;
    add(rule, pointer, message);
  };
  const rawSeq = own(t, 'seq');
  const seq = normalizeSeq(rawSeq);
  if (seq === undefined) bad(rawSeq === undefined ? at : `${at}/seq`, rawSeq === undefined ? 'missing required "seq"' : `"seq" must be a non-negative integer or a digit string like "001", found ${describe(rawSeq)}`);
  const rawSlug = own(t, 'slug');
  let slug = seq === undefined ? '' : `task-${formatSeq(seq)}`;
  if (rawSlug !== undefined) {
    if (typeof rawSlug !== 'string' || !SLUG_PATTERN.test(rawSlug)) bad(`${at}/slug`, `"slug" must be 1-64 letters, digits, ".", "_" or "-" (it names the workspace file), found ${describe(rawSlug)}`);
    else slug = rawSlug;
  }
  const rawType = own(t, 'type');
  let type: TaskType = 'BUILD';
  if (rawType !== undefined) {
    const upper = typeof rawType === 'string' ? rawType.toUpperCase() : undefined;
    if (upper === undefined || !(TASK_TYPES as readonly string[]).includes(upper)) bad(`${at}/type`, `"type" must be SPEC, BUILD or VERIFY, found ${describe(rawType)}`);
    else type = upper as TaskType;
  }
  const delta = own(t, 'delta');
  if (delta === undefined) bad(at, 'missing required "delta" (the list of files the task changes)');
  else if (!Array.isArray(delta) || delta.length === 0) bad(`${at}/delta`, `"delta" must be a non-empty list of project-relative paths, found ${describe(delta)}`);
  else
    delta.forEach((p, j) => {
      if (typeof p !== 'string') bad(`${at}/delta/${j}`, `a delta path must be a string, found ${describe(p)}`);
      else {
        const why = unsafePathReason(p) ?? outside?.(p);
        if (why !== undefined) bad(`${at}/delta/${j}`, `delta path ${JSON.stringify(p)} ${why}`, 'unsafe-path');
      }
    });
  const verify = own(t, 'verify');
  if (verify === undefined) bad(at, 'missing required "verify" (the command that proves the task done)');
  else if (typeof verify !== 'string' || verify.trim() === '') bad(`${at}/verify`, `"verify" must be a non-empty string, found ${describe(verify)}`);
  const budget = own(t, 'budget');
  if (budget !== undefined && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) bad(`${at}/budget`, `"budget" must be a non-negative number, found ${describe(budget)}`);
  const description = own(t, 'description');
  if (description !== undefined && typeof description !== 'string') bad(`${at}/description`, `"description" must be a string, found ${describe(description)}`);
  const preflight = own(t, 'preflight');
  if (preflight !== undefined && !isStringArray(preflight)) bad(`${at}/preflight`, '"preflight" must be a list of strings');
  const depends: number[] = [];
  const rawDepends = own(t, 'depends');
  const list: unknown[] = rawDepends === undefined || rawDepends === 'none' || rawDepends === null ? [] : Array.isArray(rawDepends) ? rawDepends : [rawDepends];
  const single = !Array.isArray(rawDepends);
  list.forEach((d, j) => {
    const pointer = single ? `${at}/depends` : `${at}/depends/${j}`;
    const n = normalizeSeq(d);
    if (n === undefined) bad(pointer, `a dependency must be a seq (like "001" or 1) or "none", found ${describe(d)}`);
    else if (depends.includes(n)) bad(pointer, `dependency ${formatSeq(n)} is listed twice${seq === undefined ? '' : ` in task ${formatSeq(seq)}`}`, 'duplicate-dependency');
    else depends.push(n);
  });
  if (!ok || seq === undefined) return undefined;
  depends.sort((a, b) => a - b);
  const task: PlanTask = { seq, slug, type, delta: delta as string[], verify: (verify as string).trim(), depends };
  if (typeof description === 'string') task.description = description;
  if (typeof budget === 'number') task.budget = budget;
  if (preflight !== undefined) task.preflight = preflight as string[];
  return task;
}

const SIMPLE_SAFE_PATH = /^[^\0\\/~][^\0\\]*$/;
const DRIVE = /^[A-Za-z]:/;
const TYPES: Record<string, TaskType> = { SPEC: 'SPEC', BUILD: 'BUILD', VERIFY: 'VERIFY', spec: 'SPEC', build: 'BUILD', verify: 'VERIFY' };

/** A well-formed task read with no allocation beyond its result, or undefined to take the careful path. */
function fastTask(t: unknown, outside?: (path: string) => string | undefined): PlanTask | undefined {
  if (!isObject(t)) return undefined;
  const { seq: rawSeq, slug, type, delta, verify, budget, depends: rawDepends, description, preflight } = t;
  if (Object.getPrototypeOf(t) !== Object.prototype && Object.getPrototypeOf(t) !== null) return undefined;
  const seq = typeof rawSeq === 'number' && Number.isSafeInteger(rawSeq) && rawSeq >= 0 && rawSeq <= 999_999_999 ? rawSeq : normalizeSeq(rawSeq);
  if (seq === undefined) return undefined;
  if (slug !== undefined && (typeof slug !== 'string' || !SLUG_PATTERN.test(slug))) return undefined;
  const taskType = type === undefined ? 'BUILD' : typeof type === 'string' ? TYPES[type] : undefined;
  if (taskType === undefined) return undefined;
  if (!Array.isArray(delta) || delta.length === 0) return undefined;
  for (const p of delta) if (typeof p !== 'string' || p.includes('..') || !SIMPLE_SAFE_PATH.test(p) || DRIVE.test(p) || p.length > 4096 || outside?.(p) !== undefined) return undefined;
  if (typeof verify !== 'string' || verify.trim() === '') return undefined;
  if (budget !== undefined && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) return undefined;
  if (description !== undefined && typeof description !== 'string') return undefined;
  if (preflight !== undefined && !isStringArray(preflight)) return undefined;
  let depends: number[];
  if (rawDepends === undefined || rawDepends === 'none' || rawDepends === null) depends = [];
  else if (Array.isArray(rawDepends)) {
    depends = new Array<number>(rawDepends.length);
    for (let j = 0; j < rawDepends.length; j++) {
      const d: unknown = rawDepends[j];
      const n = typeof d === 'number' && Number.isSafeInteger(d) && d >= 0 && d <= 999_999_999 ? d : normalizeSeq(d);
      if (n === undefined) return undefined;
      // Insertion into the sorted prefix; a duplicate sends the task to the careful path.
      let k = j - 1;
      while (k >= 0 && depends[k]! > n) {
        depends[k + 1] = depends[k]!;
        k--;
      }
      if (k >= 0 && depends[k] === n) return undefined;
      depends[k + 1] = n;
    }
  } else {
    const n = normalizeSeq(rawDepends);
    if (n === undefined) return undefined;
    depends = [n];
  }
  const task: PlanTask = { seq, slug: typeof slug === 'string' ? slug : `task-${formatSeq(seq)}`, type: taskType, delta: delta as string[], verify: verify.trim(), depends };
  if (typeof description === 'string') task.description = description;
  if (typeof budget === 'number') task.budget = budget;
  if (preflight !== undefined) task.preflight = preflight;
  return task;
}

/** Where dependency `seq` is written in task `index` (depends are sorted after reading, so search the raw list). */
function dependsPointer(rawTasks: unknown, index: number, seq: number): string {
  const t = Array.isArray(rawTasks) ? (rawTasks[index] as unknown) : undefined;
  const d = isObject(t) ? own(t, 'depends') : undefined;
  if (!Array.isArray(d)) return `/tasks/${index}/depends`;
  const at = d.findIndex((x) => normalizeSeq(x) === seq);
  return at < 0 ? `/tasks/${index}/depends` : `/tasks/${index}/depends/${at}`;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  if (typeof v === 'object') return 'an object';
  return typeof v === 'number' || typeof v === 'boolean' ? `${typeof v} ${v}` : typeof v;
}
