/**
 * The outer loop (`ratchet jixo run`) as a pool of runner slots. Each slot, on its own:
 *   1. under the log lock, triages for a fresh runner id (claiming: stale locks released, the
 *      first executable task locked for that runner, or a Planner round elected, or the job's
 *      final exit recorded) - so no two runners are ever given the same task;
 *   2. starts the agent with that assignment (environment + stdin) and waits for it alone;
 *   3. when the agent exits (or is killed after the agent timeout), releases what it left locked
 *      and starts the next one at once: the pool never waits for the slowest agent.
 * A slot with nothing to do (every ready task taken, another runner planning) waits until an agent
 * exits or the idle poll comes round. When none of its agents runs, only a runner elsewhere can
 * change the log (a task or the Planner round it holds with a lease): the slot waits for that lease,
 * or stops the run (status `held`) when it ends past `maxWaitMs`. No agent is ever started with
 * nothing to do. Every agent start counts against the job's run quota.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { activeRunnersPath, publishActiveRunners } from './active-runners.js';
import { JixoError } from './errors.js';
import { DEFAULT_LEASE_MS, readJobFile } from './files.js';
import { fileLog, type LogHandle } from './log-handle.js';
import { formatProgress } from './log.js';
import { clearExit, electPlanner, endPlannerRound, finishTask, listTasks, lockTask, plannerOf, recordExit, releaseRunnerTasks, releaseStaleLocks, renewPlannerLease, renewTaskLeases, taskLockStaleness } from './ops.js';
import { jobName, logPathFor, runnerId, shellSpawner, type AgentOutcome, type Assignment, type RunOptions, type RunResult, type SpawnAgent } from './runner.js';
import { SYSTEM_PROMPT } from './system-prompt.js';
import { triage } from './triage.js';
import type { LogFile, TasksExit } from './types.js';

const DEFAULT_IDLE_POLL_MS = 250;

export async function runJob(options: RunOptions): Promise<RunResult> {
  const clock = options.clock ?? Date.now;
  const jobPath = resolve(options.jobPath);
  const { job } = await readJobFile(jobPath);
  const name = jobName(jobPath, job);
  const logPath = logPathFor(jobPath, job);
  const runners = options.runners ?? 1;
  const maxLoops = options.maxLoops ?? 20;
  const maxRuns = options.maxRuns ?? runners * maxLoops;
  if (!Number.isInteger(runners) || runners < 1 || runners > 64) throw new JixoError('bad-argument', `runners must be 1..64, got ${runners}`);
  if (!Number.isInteger(maxLoops) || maxLoops < 1) throw new JixoError('bad-argument', `max loops must be >= 1, got ${maxLoops}`);
  if (!Number.isInteger(maxRuns) || maxRuns < 1) throw new JixoError('bad-argument', `max runs must be >= 1, got ${maxRuns}`);
  if (options.agentTimeoutMs !== undefined && !(options.agentTimeoutMs > 0)) throw new JixoError('bad-argument', `agent timeout must be > 0 ms, got ${options.agentTimeoutMs}`);
  if (options.maxWaitMs !== undefined && !(options.maxWaitMs >= 0)) throw new JixoError('bad-argument', `max wait must be >= 0 ms, got ${options.maxWaitMs}`);
  const jobDir = dirname(jobPath);
  const cwd = options.cwd ?? (basename(jobDir) === '.jixo' ? dirname(jobDir) : jobDir);

  const store = options.log ?? fileLog(logPath);
  await store.ensure(new Date(clock()).toISOString());
  const { log } = await store.read();
  if (log.frontMatter.exit?.code === 0 || log.frontMatter.progress >= 1) {
    if (!options.force) return { status: 'skipped', loops: 0, runs: 0, progress: log.frontMatter.progress, ...(log.frontMatter.exit ? { exit: log.frontMatter.exit } : {}), logPath, reason: 'the job is already finished (use --force to run it again)' };
    await store.update((l) => (l.frontMatter.exit ? clearExit(l) : undefined));
  }
  return new Pool({ ...options, log: store, jobPath, logPath, name, cwd, runners, maxLoops, maxRuns, clock, dirs: job.frontMatter.dirs ?? [] }).run();
}

interface PoolSettings extends RunOptions {
  log: LogHandle;
  logPath: string;
  name: string;
  cwd: string;
  runners: number;
  maxLoops: number;
  maxRuns: number;
  clock: () => number;
  dirs: string[];
}

/** What a runner that is not ours holds (a task lock, the Planner round), with its lease. */
interface Held {
  what: string;
  runner: string;
  until: string;
}

type Plan = { kind: 'start'; assignment: Assignment } | { kind: 'wait'; reason: string; held: Held | undefined } | { kind: 'stop'; exit: TasksExit };

interface Stop {
  status: RunResult['status'];
  reason: string;
  heldUntil?: string;
}

/** Pool writes wait for the log lock as long as its holder is alive: its lease bounds the wait (a lock timeout here killed a run whose Planner held the lock). */
const NO_TIMEOUT = { timeoutMs: Number.POSITIVE_INFINITY };

class Pool {
  private readonly spawn: SpawnAgent;
  private readonly prompt: string;
  private readonly retries: number;
  /**
   * Runners being assigned right now and runners whose agent runs: the truth about who is active,
   * for the stale-lock judgement inside an assignment.
   */
  private readonly active = new Set<string>();
  /** Runners whose agent was started and has not exited: the only ones agents are told about. */
  private readonly running = new Set<string>();
  private renewing = new Set<string>();
  /** Every runner this run started (an exit 1 stops the run only when one of them recorded it). */
  private readonly ours = new Set<string>();
  private runs = 0;
  private started = 0;
  private maxGeneration = 0;
  private stop: Stop | undefined;
  private wakers: (() => void)[] = [];
  private published: Promise<void> = Promise.resolve();

  constructor(private readonly s: PoolSettings) {
    this.spawn = s.spawn ?? shellSpawner(s.onEvent);
    this.prompt = s.systemPrompt ?? SYSTEM_PROMPT;
    this.retries = s.retries ?? 3;
  }

  async run(): Promise<RunResult> {
    let slots: ('done' | 'crashed')[];
    try {
      slots = await Promise.all(Array.from({ length: this.s.runners }, (_, i) => this.slot(i + 1)));
    } finally {
      await this.published.catch(() => undefined);
      await rm(activeRunnersPath(this.s.logPath), { force: true });
    }
    const { log } = await this.s.log.read();
    const exit = log.frontMatter.exit;
    const base = { loops: this.maxGeneration, runs: this.runs, progress: log.frontMatter.progress, logPath: this.s.logPath, ...(exit ? { exit } : {}) };
    if (this.stop) return { ...base, ...this.stop };
    if (slots.every((s) => s === 'crashed')) return { status: 'crashed', ...base, reason: `every runner slot crashed ${this.retries + 1} times in a row` };
    if (this.s.once) return { status: 'once', ...base, reason: 'each runner slot ran until one agent finished (--once)' };
    if (this.runs >= this.s.maxRuns) {
      const status = this.s.maxRuns === this.s.runners * this.s.maxLoops ? 'max-loops' : 'quota';
      return { status, ...base, reason: `the turn quota is used up: ${this.runs} agent runs of ${this.s.maxRuns} (${status === 'quota' ? '--max-runs' : `${this.s.runners} runners x --max-loops ${this.s.maxLoops}`}), and the job is not finished (progress ${formatProgress(log.frontMatter.progress)})` };
    }
    return { status: 'max-loops', ...base, reason: `every runner slot started ${this.s.maxLoops} agents (--max-loops) without a tasks-exit code 0` };
  }

  /** One runner slot: assign, start, wait for its agent only, release, repeat. */
  private async slot(slot: number): Promise<'done' | 'crashed'> {
    let generation = 0;
    let crashes = 0;
    let idle: string | undefined;
    while (this.stop === undefined && generation < this.s.maxLoops) {
      if (this.runs >= this.s.maxRuns) return 'done';
      // Reserve the run before the (asynchronous) assignment, so slots never overrun the quota together.
      this.runs++;
      const id = runnerId(this.s.name, generation + 1, this.s.clock);
      // Active for the assignment's own stale-lock judgement, but not published: agents are told
      // only of runners that started (the task it gets is leased, so nobody takes it meanwhile).
      this.active.add(id);
      let plan: Plan;
      try {
        plan = await this.assign(id);
      } catch (err) {
        this.active.delete(id);
        this.runs--;
        throw err;
      }
      if (plan.kind !== 'start') {
        this.active.delete(id);
        this.runs--;
        if (plan.kind === 'stop') {
          this.finish(plan.exit);
          return 'done';
        }
        // Nothing for this slot now. While a runner of ours is active (an agent running or being
        // cleaned up after, another slot assigning), it may change that: wait for it. Otherwise only
        // a runner elsewhere can (what it holds, until its lease ends): wait for that, within
        // maxWaitMs, and never start an agent that would have nothing to do.
        let reason = plan.reason;
        if (this.active.size === 0) {
          const held = plan.held;
          const waitMs = this.s.maxWaitMs ?? this.s.lockLeaseMs ?? DEFAULT_LEASE_MS;
          if (held === undefined || Date.parse(held.until) - this.s.clock() > waitMs) {
            const stop: Stop = held === undefined
              ? { status: 'held', reason: `nothing can run and none of this run's agents is working: ${plan.reason}` }
              : { status: 'held', reason: `${held.what} is held by ${held.runner} until ${held.until} (its lease), past the longest wait (${waitMs} ms): run again after that time, or with a longer --max-wait`, heldUntil: held.until };
            this.stop ??= stop;
            this.wake();
            return 'done';
          }
          reason = `${held.what} is held by ${held.runner} until ${held.until}`;
        }
        if (idle !== reason) this.s.onEvent?.({ type: 'slot-idle', slot, reason });
        idle = reason;
        await this.changeOrTimeout();
        continue;
      }
      idle = undefined;
      generation++;
      this.maxGeneration = Math.max(this.maxGeneration, generation);
      this.ours.add(id);
      this.running.add(id);
      await this.publish();
      let outcome: AgentOutcome;
      try {
        outcome = await this.start(slot, generation, id, plan.assignment, crashes);
      } finally {
        this.running.delete(id);
      }
      void this.publish().catch(() => undefined);
      const { released, log } = await this.cleanUp(id, outcome);
      this.active.delete(id);
      if (outcome.timedOut === true) this.s.onEvent?.({ type: 'agent-timeout', slot, runner: id, timeoutMs: this.s.agentTimeoutMs ?? 0, released });
      const exit = log.frontMatter.exit;
      const fresh = exit !== undefined && (exit.code === 0 || this.ours.has(exit.runner)) ? exit : undefined;
      this.s.onEvent?.({ type: 'agent-exit', slot, loop: generation, runner: id, code: outcome.code, signal: outcome.signal, attempt: crashes, timedOut: outcome.timedOut === true, progress: log.frontMatter.progress, ...(fresh ? { exit: fresh } : {}) });
      this.wake();
      if (fresh) this.finish(fresh);
      if (outcome.code === 0) {
        crashes = 0;
        if (this.s.once) return 'done';
      } else if (++crashes > this.retries) return 'crashed';
    }
    return 'done';
  }

  /** An exit code 0, or 1 recorded by one of our runners, stops every slot (their agents finish first). */
  private finish(exit: TasksExit): void {
    if (this.stop !== undefined) return;
    if (exit.code === 0) this.stop = { status: 'completed', reason: exit.reason };
    else if (exit.code === 1 && this.ours.has(exit.runner)) this.stop = { status: 'error', reason: exit.reason };
    this.wake();
  }

  /**
   * Protocol 0 for `id` before it starts, in one locked write: release stale locks, then lock its
   * task (claiming: the first executable one), or leave a Planner round to it, or record the
   * job's final exit (the decision is the log's, not the agent's, so no agent is started for it).
   */
  private async assign(id: string): Promise<Plan> {
    // The job file is re-read: the user may have answered a clarification meanwhile.
    const { job } = await readJobFile(this.s.jobPath);
    const leaseMs = this.s.lockLeaseMs ?? DEFAULT_LEASE_MS;
    const { result } = await this.s.log.update<Plan>(
      (log) => {
        // The time is read inside the lock: a wait for it must not make leases look younger than they are.
        const nowMs = this.s.clock();
        const now = new Date(nowMs).toISOString();
        // Who is active is read here, inside the lock: other slots start agents while we wait for it,
        // and a runner missing from the list would have its task taken as stale.
        const others = [...this.active].filter((r) => r !== id);
        const d = triage({ log, job, runner: id, active: others, claiming: true, now: nowMs });
        const next = d.staleLocks.length > 0 ? releaseStaleLocks(log, [...this.active], { now, job: this.s.name }).log : log;
        if (d.kind === 'role' && d.role === 'Runner' && d.taskId !== undefined) return { log: lockTask(next, d.taskId, id, { now, leaseMs, job: this.s.name }), result: { kind: 'start', assignment: { role: 'Runner', taskId: d.taskId, objective: d.objective } } };
        // The Planner round is recorded with the assignment: the agent's own triage says the same.
        if (d.kind === 'role') return { log: electPlanner(next, id, { now, leaseMs }), result: { kind: 'start', assignment: { role: 'Planner', objective: d.objective } } };
        if (d.code === 2) return { log: next, result: { kind: 'wait', reason: d.reason, held: this.heldElsewhere(next, nowMs) } };
        const exit: TasksExit = { code: d.code, reason: d.reason, runner: id, time: now };
        this.ours.add(id);
        return { log: recordExit(next, exit, { now }), result: { kind: 'stop', exit } };
      },
      // No `active` list for the lock itself: it would be read before the wait, and a runner started
      // meanwhile would see its `jixo lock` broken as stale. Our agents' detached locks name this
      // process as owner, and cleanUp drops an exited agent's lock.
      { runner: id, ...NO_TIMEOUT },
    );
    return result!;
  }

  /** The first lease to end among what runners that are not ours hold (live task locks, the Planner round). */
  private heldElsewhere(log: LogFile, nowMs: number): Held | undefined {
    const live = new Set(this.active);
    const held: Held[] = [];
    for (const t of listTasks(log)) {
      if (t.status !== 'Locked' || t.runner === undefined || live.has(t.runner) || t.leaseUntil === undefined) continue;
      if (taskLockStaleness(t, live, nowMs) === undefined) held.push({ what: `task ${t.id}`, runner: t.runner, until: t.leaseUntil });
    }
    const planner = plannerOf(log, nowMs);
    if (planner !== undefined && !live.has(planner.runner)) held.push({ what: 'the Planner round', runner: planner.runner, until: planner.leaseUntil });
    return held.sort((a, b) => Date.parse(a.until) - Date.parse(b.until))[0];
  }

  private async start(slot: number, loop: number, id: string, assignment: Assignment, attempt: number): Promise<AgentOutcome> {
    const s = this.s;
    const others = [...this.running].filter((r) => r !== id);
    const env: Record<string, string> = {
      ...s.env,
      RATCHET_JIXO_RUNNER: id,
      RATCHET_JIXO_JOB: s.name,
      RATCHET_JIXO_ACTIVE: others.join(','),
      RATCHET_JIXO_MAX_TURNS: String(s.maxTurns ?? 40),
      RATCHET_JIXO_JOB_FILE: s.jobPath,
      RATCHET_JIXO_LOG_FILE: s.logPath,
      RATCHET_JIXO_CWD: s.cwd,
      RATCHET_JIXO_DIRS: s.dirs.join(','),
      RATCHET_JIXO_LOOP: String(loop),
      RATCHET_JIXO_ROLE: assignment.role,
      RATCHET_JIXO_TASK: assignment.role === 'Runner' ? assignment.taskId : '',
      RATCHET_JIXO_OWNER_PID: String(process.pid),
      // The agent is an agent for every ratchet command it runs (goals' owner rules).
      RATCHET_ACTOR: 'agent',
    };
    const assigned = assignment.role === 'Runner' ? `Assigned_Task: ${assignment.taskId} (locked for you: ${assignment.objective})\n` : assignment.role === 'Planner' ? `Assigned_Role: Planner (${assignment.objective})\n` : '';
    const stdin = `${this.prompt}\n\n<ENVIRONMENT_VALUES>\nTask_Runner: ${id}\nJob_Name: ${s.name}\nCurrent_Task_Max_Turns_Quota: ${env.RATCHET_JIXO_MAX_TURNS}\nOther_Runner_List: ${others.length > 0 ? others.join(', ') : '(none)'}\ntask.cwd: ${s.cwd}\ntask.dirs: ${env.RATCHET_JIXO_DIRS || '(none)'}\ntask.filepath: ${s.jobPath}\ntask.log.filepath: ${s.logPath}\n${assigned}</ENVIRONMENT_VALUES>\n`;
    s.onEvent?.({ type: 'agent-start', slot, loop, run: ++this.started, runner: id, assignment, attempt });
    // Renew the agent's detached log lock (if it takes one) well within its lease while it runs: a
    // long task keeps it; if this process dies, the renewals stop and the lock expires on any host.
    const leaseMs = s.lockLeaseMs ?? DEFAULT_LEASE_MS;
    // The same for the task it was given: its `leaseUntil:` moves on, so no runner elsewhere takes it.
    const renewal = setInterval(() => {
      void s.log.renewRunnerLock(id, leaseMs).catch(() => undefined);
      void this.renewTasks(id, leaseMs).catch(() => undefined);
    }, Math.max(50, Math.floor(leaseMs / 3)));
    try {
      return await this.spawn({ runner: id, command: s.agent, cwd: s.cwd, env, stdin, ...(s.agentTimeoutMs !== undefined ? { timeoutMs: s.agentTimeoutMs } : {}), ...(s.killGraceMs !== undefined ? { killGraceMs: s.killGraceMs } : {}) });
    } catch {
      return { code: null, signal: 'spawn-error' };
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * Moves the leases of what `id` holds: its task, or its Planner round. A write only when it holds
   * either; one renewal at a time per runner (a write waiting for a lock held long must not pile up).
   */
  private async renewTasks(id: string, leaseMs: number): Promise<void> {
    if (this.renewing.has(id)) return;
    this.renewing.add(id);
    try {
      const { log } = await this.s.log.read();
      const holds = listTasks(log).some((t) => t.status === 'Locked' && t.runner === id && t.leaseUntil !== undefined) || log.frontMatter.planner?.runner === id;
      if (!holds) return;
      await this.s.log.update(
        (current) => {
          const now = new Date(this.s.clock()).toISOString();
          const { log: next } = renewTaskLeases(current, id, leaseMs, { now });
          const renewed = renewPlannerLease(next, id, leaseMs, { now });
          return renewed === current ? undefined : renewed;
        },
        { runner: id, timeoutMs: leaseMs / 3 },
      );
    } finally {
      this.renewing.delete(id);
    }
  }

  /**
   * After an agent exits: drop the detached log lock it left, and hand back any task it still holds
   * (crashed, killed, or forgot), so the next triage can give it out again. A killed agent's task
   * gets a Pending Work Log entry saying so (a pause, not a blocker: the next runner continues it).
   */
  private async cleanUp(id: string, outcome: AgentOutcome): Promise<{ released: string[]; log: LogFile }> {
    await this.s.log.releaseRunnerLock(id);
    // Most agents leave nothing locked: look without the lock first (a restart costs one locked write,
    // the assignment). A look that fails (another runner is rewriting the log by hand under its lock
    // right now) is no answer: the locked write below waits for that runner's unlock.
    const look = await this.s.log.read().catch(() => undefined);
    if (look !== undefined && !listTasks(look.log).some((t) => t.status === 'Locked' && t.runner === id) && look.log.frontMatter.planner?.runner !== id) return { released: [], log: look.log };
    const now = new Date(this.s.clock()).toISOString();
    const { result, log: after } = await this.s.log.update<string[]>((current) => {
      const held = listTasks(current).filter((t) => t.status === 'Locked' && t.runner === id);
      // A Planner round ends with its agent.
      const ended = endPlannerRound(current, id);
      if (held.length === 0) return ended === current ? undefined : { log: ended, result: [] };
      let next: LogFile = ended;
      if (outcome.timedOut === true) {
        for (const t of held) {
          next = finishTask(next, { id: t.id, runner: id, job: this.s.name, outcome: 'Pending', summary: `The outer loop killed runner ${id} after the agent timeout (${this.s.agentTimeoutMs ?? 0} ms): the task is Pending again, work may be half done.` }, { now });
        }
      } else {
        // Only this runner's tasks go back to Pending, leased or not.
        next = releaseRunnerTasks(next, id, { now }).log;
      }
      return { log: next, result: held.map((t) => t.id) };
    }, NO_TIMEOUT);
    return { released: result ?? [], log: after };
  }

  /**
   * Publish the active runners for agents' own triage (see active-runners.ts). Writes are chained,
   * and each writes the set as it is when its turn comes, so the last write is the latest state.
   */
  private publish(): Promise<void> {
    this.published = this.published.catch(() => undefined).then(() => publishActiveRunners(this.s.logPath, [...this.running]));
    return this.published;
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    wakers.forEach((w) => w());
  }

  /** Until an agent exits (or the run stops), or the idle poll: a Planner may add work meanwhile. */
  private changeOrTimeout(): Promise<void> {
    return new Promise((resolveWait) => {
      const timer = setTimeout(done, this.s.idlePollMs ?? DEFAULT_IDLE_POLL_MS);
      function done(): void {
        clearTimeout(timer);
        resolveWait();
      }
      this.wakers.push(done);
    });
  }
}
