/**
 * Pure operations on a campaign value: create, add a checked plan, legal status changes, claims,
 * summaries. No I/O and no clock of their own (callers pass `now`); src/store.ts wraps them in
 * locked read-modify-writes.
 */
import { CampaignError } from './errors.js';
import { cascadeStatus, readyTasks, releaseCascades, seqLookup, waves } from './graph.js';
import { canTransition, legalTargets } from './lifecycle.js';
import type { Plan } from './plan.js';
import { formatSeq } from './seq.js';
import type { Campaign, CascadeState, Idioms, Task, TaskStatus } from './types.js';

export interface NewCampaignOptions {
  framework?: string | null;
  idioms?: Idioms;
  /** ISO time of creation. */
  now: string;
}

/** A fresh, empty, active campaign. Its id (creation time + objective slug) names the archive entry. */
export function newCampaign(objective: string, options: NewCampaignOptions): Campaign {
  const trimmed = objective.trim();
  if (trimmed === '') throw new CampaignError('invalid-argument', 'the objective must be a non-empty string');
  return {
    id: campaignId(trimmed, options.now),
    objective: trimmed,
    framework: options.framework ?? null,
    idioms: options.idioms ?? { required: [], forbidden: [] },
    createdAt: options.now,
    status: 'active',
    tasks: [],
    phase: 'EXPLORE',
    phaseLog: [],
  };
}

/** `20261122T015305Z-add-user-auth`: sortable, file-name safe, readable. */
export function campaignId(objective: string, isoTime: string): string {
  const stamp = isoTime.replace(/\.\d+/, '').replace(/[-:]/g, '');
  const slug = objective
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? stamp : `${stamp}-${slug}`;
}

/** Append a checked plan's tasks (depends already sorted by checkPlan) as pending; the plan's framework and idioms fill in unset ones. */
export function addPlan(campaign: Campaign, plan: Plan): Task[] {
  // Literal construction, not spread: spread copies come out as slow dictionary-like objects in V8,
  // which made every later pass over 100,000 tasks several times slower.
  const added: Task[] = plan.tasks.map((t) => {
    const task: Task = { seq: t.seq, slug: t.slug, type: t.type, delta: t.delta, verify: t.verify, depends: t.depends, status: 'pending' };
    if (t.description !== undefined) task.description = t.description;
    if (t.budget !== undefined) task.budget = t.budget;
    if (t.preflight !== undefined) task.preflight = t.preflight;
    return task;
  });
  // A loop, not push(...added): spreading 300,000 arguments overflows the stack.
  for (const task of added) campaign.tasks.push(task);
  if (campaign.framework === null && plan.framework !== null) campaign.framework = plan.framework;
  if (campaign.idioms.required.length === 0 && campaign.idioms.forbidden.length === 0) campaign.idioms = plan.idioms;
  return added;
}

export function findTask(campaign: Campaign, seq: number): Task {
  const i = seqLookup(campaign.tasks).get(seq);
  if (i < 0) throw new CampaignError('unknown-task', `no task ${formatSeq(seq)} in the campaign (${campaign.tasks.length} tasks)`);
  return campaign.tasks[i]!;
}

export interface UpdateOptions {
  reason?: string;
  /** Who reports the change: for a claimed task it must be the holder. */
  runner?: string;
  /**
   * The user overrides the claim (from their own terminal): a claimed task changes without its
   * holder. Callers that serve agents never set it (the CLI refuses it under RATCHET_ACTOR=agent).
   */
  asUser?: boolean;
  now?: string;
}

/**
 * A claimed task (in progress under a runner) changes only by its holder, or by the user. Naming
 * another runner, or nobody, is refused: the shortcut a builder takes to finish work it does not hold.
 */
export function checkHolder(task: Task, options: Pick<UpdateOptions, 'runner' | 'asUser'>): void {
  if (task.status !== 'in_progress' || task.runner === undefined || options.asUser === true || options.runner === task.runner) return;
  if (options.runner !== undefined && task.lostAttempts?.some((l) => l.runner === options.runner) === true) {
    // Its lease ran out and another runner took the task over: say so, as a heartbeat would.
    throw new CampaignError('lease-lost', `task ${formatSeq(task.seq)}: ${options.runner} no longer holds its lease (${task.runner} holds it now); nothing was written`);
  }
  const who = options.runner === undefined ? 'a caller that names no runner' : options.runner;
  throw new CampaignError(
    'not-holder',
    `task ${formatSeq(task.seq)} is held by ${task.runner}; ${who} cannot change it (only its holder, with --runner ${task.runner}, or the user overriding from their own terminal); nothing was written`,
  );
}

/**
 * Move a task to `to` if the lifecycle allows it. Starting work needs every dependency complete;
 * a retried task forgets its block, and the tasks blocked only by its cascade go back to pending
 * (releaseCascades); a direct block is an original failure (not a cascade).
 */
export function setTaskStatus(campaign: Campaign, seq: number, to: TaskStatus, options: UpdateOptions = {}): Task {
  requireActive(campaign);
  const task = findTask(campaign, seq);
  const from = task.status;
  checkHolder(task, options);
  if (!canTransition(from, to)) {
    const legal = legalTargets(from);
    throw new CampaignError('illegal-transition', `task ${formatSeq(seq)} is ${from}; it cannot become ${to} (legal: ${legal.length > 0 ? legal.join(', ') : 'none, it is final'})`);
  }
  if (to === 'in_progress') {
    const waiting = unmetDependencies(campaign, task);
    if (waiting.length > 0) throw new CampaignError('not-ready', `task ${formatSeq(seq)} waits for ${waiting.map(formatSeq).join(', ')} to complete`);
  }
  task.status = to;
  if (to !== 'in_progress') delete task.claimItem;
  if (to === 'blocked') {
    task.cascade = false;
    delete task.blockedBy;
    delete task.rootCause;
  }
  if (to === 'pending') {
    // Given back (released or retried): a new claim-queue item, so the old one cannot come back.
    task.round = (task.round ?? 0) + 1;
    delete task.blockedBy;
    delete task.rootCause;
    delete task.cascade;
    delete task.runner;
  }
  if (to === 'in_progress' && options.runner !== undefined) task.runner = options.runner;
  if (options.reason !== undefined) task.reason = options.reason;
  else if (to === 'pending' || to === 'in_progress') delete task.reason;
  if (options.now !== undefined) task.updatedAt = options.now;
  if (from === 'blocked' && to === 'pending') releaseCascades(campaign.tasks, options.now === undefined ? {} : { now: options.now });
  return task;
}

/** The dependencies of `task` that are not complete yet. */
export function unmetDependencies(campaign: Campaign, task: Task): number[] {
  if (task.depends.length === 0) return [];
  const lookup = seqLookup(campaign.tasks);
  return task.depends.filter((d) => {
    const i = lookup.get(d);
    return i < 0 || campaign.tasks[i]!.status !== 'complete';
  });
}

/**
 * A runner name is one line of printable text: it is shown in status lines and graphs, and a newline
 * in it could forge a line of output another tool parses.
 */
export function checkRunner(runner: string): void {
  if (runner.trim() === '') throw new CampaignError('invalid-argument', 'a runner name is required to claim a task');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (runner.length > 200 || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(runner)) {
    throw new CampaignError('invalid-argument', `runner name ${JSON.stringify(runner.slice(0, 80))} must be one line of at most 200 printable characters`);
  }
}

/** Claim the first ready task (lowest position) for `runner`; undefined when nothing is ready. */
export function claimNext(campaign: Campaign, runner: string, now?: string): Task | undefined {
  requireActive(campaign);
  checkRunner(runner);
  const [next] = readyTasks(campaign.tasks);
  if (next === undefined) return undefined;
  // Ready tasks are pending, so the lifecycle allows this; asking it keeps it the only authority.
  if (!canTransition(next.status, 'in_progress')) throw new CampaignError('illegal-transition', `task ${formatSeq(next.seq)} is ${next.status}; it cannot be claimed`);
  next.status = 'in_progress';
  next.runner = runner;
  delete next.reason;
  if (now !== undefined) next.updatedAt = now;
  return next;
}

export interface CampaignSummary {
  id: string;
  objective: string;
  framework: string | null;
  status: Campaign['status'];
  state: CascadeState;
  total: number;
  counts: Record<TaskStatus, number>;
  /** Original failures (blocked, not by cascade). */
  rootFailures: number[];
  /** Blocked by cascade. */
  cascaded: number[];
  waves: number;
  /** Every delta file, sorted (find-similar compares them). */
  deltaFiles: string[];
}

export function summarize(campaign: Campaign): CampaignSummary {
  const counts: Record<TaskStatus, number> = { pending: 0, in_progress: 0, complete: 0, blocked: 0 };
  const rootFailures: number[] = [];
  const cascaded: number[] = [];
  const files = new Set<string>();
  for (const t of campaign.tasks) {
    counts[t.status]++;
    if (t.status === 'blocked') (t.cascade === true ? cascaded : rootFailures).push(t.seq);
    for (const f of t.delta) files.add(f);
  }
  return {
    id: campaign.id,
    objective: campaign.objective,
    framework: campaign.framework,
    status: campaign.status,
    state: cascadeStatus(campaign.tasks).state,
    total: campaign.tasks.length,
    counts,
    rootFailures,
    cascaded,
    waves: waves(campaign.tasks).length,
    deltaFiles: [...files].sort(),
  };
}

function requireActive(campaign: Campaign): void {
  if (campaign.status !== 'active') throw new CampaignError('no-campaign', `campaign ${campaign.id} is ${campaign.status}`);
}
