/**
 * The dashboard's sections, each read from the package that owns its state, through the storage
 * port where that state is shared (the campaign and its claim queue, goals, JIXO logs, the activity
 * and refusal logs) and from the project's files where it is local to a machine (the task session,
 * flow sessions, the campaign archive). A section that cannot be read throws; the caller shows the
 * error in its place and keeps the others.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { buildIndex, cascadeStatus, criticalPath, readArchive, readCampaignWithClaims, topoOrder, type Campaign, type LiveClaim } from '@ratchet/campaign-dag';
import { currentStep, nextDirective, readSessionSync, type Session } from '@ratchet/orchestrator/session-view';
import type { LogFile, RoadmapItem } from '@ratchet/jixo-log';
import type { StorageBackend } from '@ratchet/store';
import type { Context } from '../context.js';
import { displayPath } from '../paths.js';
import type { ArchivedCampaign, CampaignView, DashboardTask, FlowView, JixoJobView, SessionView, WaitingItem } from './model.js';

export const TASK_SESSION = '.ratchet/session.json';
export const FLOW_SESSIONS = '.ratchet/flows';
export const JIXO_DIR = '.jixo';
export const GOALS_STATE = '.ratchet/goals.json';
const CAMPAIGN_KEY = '.ratchet/campaign.json';

/** Where a key lives, as the user should read it: the file, or `backend#key`. */
export function whereOf(ctx: Context, backend: StorageBackend, key: string): string {
  return backend.kind === 'file' ? key : `${backend.location}#${key}`;
}

/** The active campaign as the claim queue sees it now, with its graph facts; null when none is active. */
export async function readCampaignView(ctx: Context, backend: StorageBackend): Promise<CampaignView | null> {
  let campaign: Campaign;
  let claims: LiveClaim[];
  try {
    ({ campaign, claims } = await readCampaignWithClaims(ctx.cwd, { backend }));
  } catch (err) {
    if ((err as { code?: unknown }).code === 'no-campaign') return null;
    throw err;
  }
  return campaignView(campaign, claims, whereOf(ctx, backend, CAMPAIGN_KEY));
}

/** The pure part: graph facts over the tasks (waves, ready, unreachable, critical path) and the live leases. */
export function campaignView(campaign: Campaign, claims: readonly LiveClaim[], where: string): CampaignView {
  const tasks = campaign.tasks;
  const index = buildIndex(tasks);
  const { level } = topoOrder(index);
  const cascade = cascadeStatus(tasks, index);
  const critical = criticalPath(tasks, index);
  const onPath = new Set(critical);
  const ready = new Set(cascade.ready);
  const unreachable = new Map(cascade.unreachable.map((u) => [u.seq, u]));
  const leases = new Map(claims.map((c) => [c.seq, c]));
  const counts = { pending: 0, in_progress: 0, complete: 0, blocked: 0 };
  let waves = 0;
  const out: DashboardTask[] = tasks.map((t, i) => {
    counts[t.status]++;
    const wave = level[i]!;
    if (wave + 1 > waves) waves = wave + 1;
    const view: DashboardTask = { seq: t.seq, slug: t.slug, type: t.type, status: t.status, depends: t.depends, wave };
    if (t.description !== undefined) view.description = t.description;
    if (t.runner !== undefined) view.runner = t.runner;
    if (t.reason !== undefined) view.reason = t.reason;
    if (t.blockedBy !== undefined) view.blockedBy = t.blockedBy;
    if (t.rootCause !== undefined) view.rootCause = t.rootCause;
    if (t.cascade !== undefined) view.cascade = t.cascade;
    if (t.updatedAt !== undefined) view.updatedAt = t.updatedAt;
    view.verify = t.verify;
    view.delta = t.delta;
    const lease = leases.get(t.seq);
    if (lease !== undefined) view.lease = { runner: lease.runner, until: lease.leaseUntil, attempt: lease.attempt, expired: lease.expired };
    if (t.lostAttempts !== undefined && t.lostAttempts.length > 0) view.lostAttempts = t.lostAttempts;
    if (ready.has(t.seq)) view.ready = true;
    const u = unreachable.get(t.seq);
    if (u !== undefined) view.unreachable = { blockedBy: u.blockedBy, rootCause: u.rootCause };
    if (onPath.has(t.seq)) view.critical = true;
    return view;
  });
  return {
    id: campaign.id,
    objective: campaign.objective,
    framework: campaign.framework,
    phase: campaign.phase ?? null,
    status: campaign.status,
    state: cascade.state,
    counts,
    tasks: out,
    ready: cascade.ready,
    waves,
    criticalPath: critical,
    where,
  };
}

/** Completed campaigns (`.ratchet/archive/`, on this machine); entries that do not read are errors. */
export async function readArchiveView(ctx: Context): Promise<{ archive: ArchivedCampaign[]; skipped: { path: string; reason: string }[] }> {
  const { entries, skipped } = await readArchive(ctx.cwd);
  return {
    archive: entries.map(({ campaign, summary }) => ({ id: campaign.id, objective: campaign.objective, completedAt: summary.completedAt, total: summary.total, counts: summary.counts })).reverse(),
    skipped,
  };
}

/** The task session (`.ratchet/session.json`): lifecycle state, plan stack, current step, next move. */
export function readSessionView(ctx: Context): SessionView | null {
  const session: Session | undefined = readSessionSync(join(ctx.cwd, TASK_SESSION));
  if (session === undefined) return null;
  const step = currentStep(session);
  const next = nextDirective(session);
  const view: SessionView = {
    taskId: session.taskId,
    state: session.state,
    stack: session.stack.map((f) => ({ planPath: f.planPath, step: Math.min(f.current + 1, f.steps.length), steps: f.steps.length, ...(f.steps[f.current] === undefined ? {} : { current: f.steps[f.current]! }) })),
    next: { instruction: next.instruction, commands: next.commands },
    history: session.history.slice(-8).map((h) => ({ at: h.at, from: h.from, trigger: h.trigger, to: h.to, ...(h.message === undefined ? {} : { message: h.message }) })),
  };
  if (session.sessionId !== undefined) view.sessionId = session.sessionId;
  if (step !== undefined) view.step = { line: step.line, index: step.index, planPath: step.planPath };
  if (session.research !== undefined) view.research = `${session.research.topic} (${session.research.planPath})`;
  if (session.postMortem !== undefined) view.postMortem = `${session.postMortem.path} (${session.postMortem.outcome})`;
  return view;
}

/** Names in a project directory (none when it does not exist). */
async function namesIn(ctx: Context, dir: string): Promise<string[]> {
  try {
    return (await readdir(join(ctx.cwd, dir))).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

/**
 * Flow sessions that are not finished, each with its step and the command that moves it on. A
 * session file that does not read is reported and the others are still shown.
 */
export async function readFlowViews(ctx: Context): Promise<{ flows: FlowView[]; errors: unknown[] }> {
  const ids = (await namesIn(ctx, FLOW_SESSIONS)).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5));
  if (ids.length === 0) return { flows: [], errors: [] };
  const { flowStatus, isFinished, FlowError } = await import('@ratchet/flows');
  const { runnerOptions } = await import('../commands/flow/project.js');
  const options = await runnerOptions(ctx);
  const flows: FlowView[] = [];
  const errors: unknown[] = [];
  for (const id of ids) {
    try {
      const view = await flowStatus(options, id);
      const s = view.session;
      if (isFinished(s.status)) continue;
      const out: FlowView = { sessionId: s.sessionId, flow: view.flow.id, status: s.status, step: s.current, command: view.directive.command };
      if (view.step !== null) out.stepTitle = view.step.title;
      if (s.haltReason !== null) out.haltReason = s.haltReason;
      if (s.status === 'HALTED' && s.clarificationQuestions.length > 0 && s.clarificationAnswers.length === 0) out.questions = s.clarificationQuestions;
      flows.push(out);
    } catch (err) {
      // A file that is not a session (a stray name) is not an error the user can act on.
      if (err instanceof FlowError && (err.code === 'bad-session-id' || err.code === 'unknown-session')) continue;
      errors.push(err);
    }
  }
  return { flows, errors };
}

/**
 * JIXO jobs: every `*.job.md` in `.jixo/` with its log (the file, or the document on a shared
 * backend), and logs found without a job. A file that does not parse is reported and skipped.
 */
export async function readJixoViews(ctx: Context, backend: StorageBackend): Promise<{ jobs: JixoJobView[]; errors: unknown[] }> {
  const names = await namesIn(ctx, JIXO_DIR);
  const shared = backend.kind !== 'file';
  const storedLogs = shared ? (await backend.documents.list('')).filter((k) => k.endsWith('.log.md')) : [];
  if (names.length === 0 && storedLogs.length === 0) return { jobs: [], errors: [] };
  const jixo = await import('@ratchet/jixo-log');
  const { logAt } = await import('../commands/jixo/shared.js');
  const jobs: JixoJobView[] = [];
  const errors: unknown[] = [];
  const seenLogs = new Set<string>();
  const rel = (abs: string): string => relative(ctx.cwd, abs).split('\\').join('/');

  const addLog = async (logPath: string, job: { path: string; name: string; clarifications: { id: string; answered: boolean }[] } | undefined): Promise<void> => {
    const key = rel(logPath);
    seenLogs.add(key);
    let log: LogFile;
    try {
      ({ log } = await (await logAt(ctx, logPath)).read());
    } catch (err) {
      // A job whose log was never started has no log yet: show the job, with nothing done.
      if ((err as { code?: unknown }).code === 'not-found' && job !== undefined) {
        jobs.push({ name: job.name, job: job.path, log: key, title: job.name, progress: 0, tasks: [], runners: [], activeRunners: [], workLog: [], clarifications: job.clarifications });
        return;
      }
      errors.push(err);
      return;
    }
    const tasks: JixoJobView['tasks'] = [];
    const visit = (items: readonly RoadmapItem[], phase: string | undefined): void => {
      for (const item of items) {
        if (item.status !== undefined) {
          tasks.push({ id: item.id, text: item.text, status: item.status, ...(item.runner === undefined ? {} : { runner: item.runner }), ...(item.leaseUntil === undefined ? {} : { leaseUntil: item.leaseUntil }), ...(item.dependsOn === undefined ? {} : { dependsOn: item.dependsOn }), ...(phase === undefined ? {} : { phase }) });
        }
        visit(item.children, item.status === undefined ? item.id : phase);
      }
    };
    visit(log.roadmap, undefined);
    const runners = [...new Set(tasks.filter((t) => t.status === 'Locked' && t.runner !== undefined).map((t) => t.runner!))].sort();
    const view: JixoJobView = {
      name: job?.name ?? key.replace(/^.*\//, '').replace(/\.log\.md$/, ''),
      log: key,
      title: log.frontMatter.title,
      progress: jixo.computeProgress(log),
      tasks,
      runners,
      activeRunners: shared ? [] : await jixo.readActiveRunners(logPath),
      workLog: log.workLog.slice(0, 10).map((e) => ({ number: e.number, time: e.time, role: e.role, objective: e.objective, result: e.result, ...(e.runner === undefined ? {} : { runner: e.runner }) })),
      clarifications: job?.clarifications ?? [],
    };
    if (job !== undefined) view.job = job.path;
    if (log.frontMatter.exit !== undefined) view.exit = log.frontMatter.exit;
    jobs.push(view);
  };

  for (const name of names.filter((n) => /\.job\.md$/i.test(n))) {
    const jobPath = join(ctx.cwd, JIXO_DIR, name);
    try {
      const { job } = await jixo.readJobFile(jobPath);
      await addLog(jixo.logPathFor(jobPath, job), { path: rel(jobPath), name: jixo.jobName(jobPath, job), clarifications: job.clarifications.map((c) => ({ id: c.id, answered: c.answered })) });
    } catch (err) {
      errors.push(err);
    }
  }
  const orphans = [...names.filter((n) => /\.log\.md$/i.test(n)).map((n) => `${JIXO_DIR}/${n}`), ...storedLogs];
  for (const key of [...new Set(orphans)].sort()) if (!seenLogs.has(key)) await addLog(join(ctx.cwd, key), undefined);
  return { jobs, errors };
}

/**
 * What only a person can move on: user-owned pending actions (and actions waiting for the user's
 * confirmation), registry proposals waiting for review or merge, from the goals state; JIXO
 * clarification requests without an answer; flows halted for the user. Each with its command.
 */
export async function readWaiting(ctx: Context, backend: StorageBackend, flows: readonly FlowView[], jobs: readonly JixoJobView[]): Promise<WaitingItem[]> {
  const out: WaitingItem[] = [];
  for (const f of flows) {
    if (f.status !== 'HALTED') continue;
    out.push({ kind: 'halted-flow', id: f.sessionId, title: `flow ${f.flow} halted${f.step === null ? '' : ` at step ${f.step}`}`, ...(f.haltReason === undefined ? {} : { detail: [f.haltReason, ...(f.questions ?? []).map((q, i) => `Q${i + 1}: ${q}`)].join('\n') }), command: f.command ?? `ratchet flow resume ${f.sessionId}` });
  }
  for (const j of jobs) {
    for (const c of j.clarifications) {
      if (c.answered || j.job === undefined) continue;
      out.push({ kind: 'clarification', id: `${j.name}#${c.id}`, title: `JIXO job ${j.name} asks for clarification ${c.id}`, command: `\${EDITOR:-vi} ${j.job}   # answer under the Response of request ${c.id}` });
    }
  }
  out.push(...(await readGoalsWaiting(ctx, backend)));
  return out;
}

async function readGoalsWaiting(ctx: Context, backend: StorageBackend): Promise<WaitingItem[]> {
  const { existsSync } = await import('node:fs');
  const path = join(ctx.cwd, GOALS_STATE);
  const shared = backend.kind !== 'file';
  if (!shared && !existsSync(path)) return [];
  const { openGoals, isPending } = await import('@ratchet/goals');
  const { loadRegistryFor } = await import('../commands/goals/shared.js');
  const state = await openGoals(path, { root: ctx.cwd, ...(shared ? { backend, key: GOALS_STATE } : {}) }).read();
  const registry = await loadRegistryFor(ctx, {});
  const now = Date.now();
  const out: WaitingItem[] = [];
  for (const a of state.actions) {
    if (!isPending(registry, a)) continue;
    const due = a.due_at === undefined ? {} : { due: a.due_at, overdue: Date.parse(a.due_at) < now };
    if (a.requires_confirmation === true && a.confirmed_at === undefined) {
      out.push({ kind: 'confirmation', id: a.id, title: a.title, detail: `${a.type}, owned by the ${a.owner}: needs the user's confirmation`, command: `ratchet actions confirm ${a.id} --as user`, ...due });
    } else if (a.owner === 'user') {
      out.push({ kind: 'action', id: a.id, title: a.title, detail: `${a.type} (${a.status})${a.description === undefined ? '' : `: ${a.description}`}`, command: `ratchet actions complete ${a.id} --as user`, ...due });
    }
  }
  for (const p of state.proposals) {
    const what = `${p.proposal_type} action type ${p.type_id ?? p.display_name ?? ''}`.trim();
    if (p.status === 'open') out.push({ kind: 'proposal', id: p.id, title: `proposal ${p.id}: ${what}`, detail: p.rationale, command: `ratchet proposals show ${p.id} && ratchet proposals review ${p.id} approve --as user   # or: reject` });
    else if (p.status === 'approved') out.push({ kind: 'proposal', id: p.id, title: `proposal ${p.id} approved, not merged: ${what}`, detail: p.rationale, command: `ratchet proposals merge ${p.id} --as user` });
  }
  return out;
}

export { displayPath };
