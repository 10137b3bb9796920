/**
 * The outer loop's parts (`ratchet jixo run`, driven by pool.ts): its options and events, runner
 * ids, the log's path and first content, and the default agent spawner (a shell command with the
 * system prompt on stdin, killed as a process group after the agent timeout).
 */
import type { LogHandle } from './log-handle.js';
import { spawn as spawnChild } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { NotFoundError, readTextFile, withLock, writeTracked } from '@ratchet/store';
import { PLACEHOLDER_TITLE, serializeLog } from './log.js';
import type { JobFile, LogFile, TasksExit } from './types.js';

const DEFAULT_KILL_GRACE_MS = 2_000;

export interface AgentRequest {
  runner: string;
  command: string;
  cwd: string;
  /** Added to the parent's environment. */
  env: Record<string, string>;
  /** Written to the agent's stdin, then closed. */
  stdin: string;
  /** Kill the agent (its whole process group: SIGTERM, then SIGKILL after `killGraceMs`) once it has run this long. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL of a timed-out agent. Default 2 000. */
  killGraceMs?: number;
}

export interface AgentOutcome {
  code: number | null;
  signal: string | null;
  /** The agent ran past `timeoutMs` and was killed. */
  timedOut?: boolean;
}

export type SpawnAgent = (request: AgentRequest) => Promise<AgentOutcome>;

/** What the outer loop gave a runner before starting it (also in its environment and prompt). */
export type Assignment = { role: 'Runner'; taskId: string; objective: string } | { role: 'Planner'; objective: string } | { role: 'none'; reason: string };

export type RunEvent =
  | { type: 'agent-start'; slot: number; loop: number; run: number; runner: string; assignment: Assignment; attempt: number }
  | { type: 'agent-exit'; slot: number; loop: number; runner: string; code: number | null; signal: string | null; attempt: number; timedOut: boolean; progress: number; exit?: TasksExit }
  | { type: 'agent-timeout'; slot: number; runner: string; timeoutMs: number; released: string[] }
  | { type: 'slot-idle'; slot: number; reason: string }
  | { type: 'agent-output'; runner: string; stream: 'stdout' | 'stderr'; text: string };

export interface RunOptions {
  /** The `*.job.md` file. */
  jobPath: string;
  /** The shell command that starts one agent. */
  agent: string;
  /** Workspace (task.cwd). Default: the job file's directory's parent when it is `.jixo`, else its directory. */
  cwd?: string;
  /** Runner slots: agents running at once. Each slot starts its next agent as soon as its last one exits. */
  runners?: number;
  /** Agents each slot may start (the old lock-step "loops"). Default 20; the job's quota defaults to runners x this. */
  maxLoops?: number;
  /** The job's quota of agent runs (every start counts, crash restarts included). Default runners x maxLoops. */
  maxRuns?: number;
  /** Each slot runs until one agent exits 0 (crashes are still restarted), then stops. */
  once?: boolean;
  /** Run a job that is already finished (progress 100% or exit 0), clearing its recorded exit. */
  force?: boolean;
  /** Current_Task_Max_Turns_Quota. Default 40. */
  maxTurns?: number;
  /** Consecutive crashes of one slot before it gives up. Default 3. */
  retries?: number;
  /**
   * The lease of an agent's task lock (the `leaseUntil:` of its Locked task) and of its detached log
   * lock (`jixo lock`), both renewed by the pool every third of it while the agent runs. If the pool
   * dies, the renewals stop and another runner, on any host, may take the task one lease later.
   * Default 10 minutes.
   */
  lockLeaseMs?: number;
  /**
   * Where the log lives: default the `*.log.md` file beside the job (`fileLog`); `storedLog(backend,
   * key)` for a log shared through a storage backend (PostgreSQL: runners on several machines).
   */
  log?: LogHandle;
  /** Kill an agent that runs longer than this (ms); its task lock is released and a Work Log entry says so. Default: never. */
  agentTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL of a timed-out agent (ms). Default 2 000. */
  killGraceMs?: number;
  /** How often an idle slot looks for work while no agent exits (ms). Default 250. */
  idlePollMs?: number;
  /**
   * When none of this run's agents is working and a runner elsewhere holds what is left (a task
   * lock, the Planner round), wait for its lease to end if it ends within this many ms; otherwise
   * stop (status `held`, `heldUntil` the lease's end) rather than start agents with nothing to do.
   * Default: `lockLeaseMs` (a lease this loop would have given).
   */
  maxWaitMs?: number;
  spawn?: SpawnAgent;
  clock?: () => number;
  systemPrompt?: string;
  onEvent?: (event: RunEvent) => void;
  /** Extra environment for every agent (after the RATCHET_JIXO_* variables, which it cannot override). */
  env?: Record<string, string>;
}

export interface RunResult {
  /** `held`: what is left is held by a runner elsewhere past `maxWaitMs` (see `heldUntil`), or nothing can run. */
  status: 'completed' | 'skipped' | 'error' | 'max-loops' | 'quota' | 'once' | 'crashed' | 'held';
  /** The most agents any one slot started. */
  loops: number;
  /** Agent runs counted against the quota. */
  runs: number;
  progress: number;
  exit?: TasksExit;
  logPath: string;
  reason: string;
  /** With status `held`: when the lease of what blocks the job ends. */
  heldUntil?: string;
}

/** `{job}-{uuidv7}-{loop:03}`, as JIXO names runners. */
export function runnerId(job: string, loop: number, clock: () => number = Date.now): string {
  return `${job}-${uuidv7(clock())}-${String(loop).padStart(3, '0')}`;
}

/** RFC 9562 UUIDv7: 48-bit milliseconds, version 7, variant 10, random rest. */
export function uuidv7(ms: number): string {
  const b = randomBytes(16);
  let t = BigInt(Math.max(0, Math.floor(ms)));
  for (let i = 5; i >= 0; i--) {
    b[i] = Number(t & 0xffn);
    t >>= 8n;
  }
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Job name: front matter `name`, else the file name without `.job.md` (or JIXO v1's `.task.md`). */
export function jobName(jobPath: string, job: JobFile): string {
  return job.frontMatter.name ?? basename(jobPath).replace(/\.(?:job|task)\.md$/i, '').replace(/\.md$/i, '');
}

/** `{dir of job}/{useLog || name}.log.md`. */
export function logPathFor(jobPath: string, job: JobFile): string {
  return join(dirname(resolve(jobPath)), `${job.frontMatter.useLog ?? jobName(jobPath, job)}.log.md`);
}

/** A fresh log: placeholder title, 0%, empty Roadmap and Work Log. */
export function initialLog(now: string): LogFile {
  return { frontMatter: { title: PLACEHOLDER_TITLE, progress: 0, createTime: now, updateTime: now, extra: {} }, preamble: '', roadmapIntro: '', roadmap: [], roadmapOutro: '', workLogIntro: '', workLog: [], sections: [] };
}

/** Create the job's log if it does not exist (under the lock, so concurrent starters agree). */
export async function ensureLog(logPath: string, now: string): Promise<boolean> {
  return withLock(logPath, async (lock) => {
    try {
      await readTextFile(logPath);
      return false;
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      // Tracked from its first version: the audit starts here.
      await writeTracked(logPath, serializeLog(initialLog(now)), { writtenAt: now, replacing: undefined, beforeRename: () => lock.verify() });
      return true;
    }
  });
}

/**
 * The default spawner: the command through the system shell, stdin piped, output forwarded as
 * events. With a timeout the agent gets its own process group, so the whole tree (the shell, the
 * agent, the tools it started) is signalled: SIGTERM first, SIGKILL after the grace period, and
 * SIGKILL again when the leader exits, for children that ignored SIGTERM.
 */
export function shellSpawner(onEvent?: (event: RunEvent) => void): SpawnAgent {
  return (req) =>
    new Promise((resolvePromise, reject) => {
      const limited = req.timeoutMs !== undefined && Number.isFinite(req.timeoutMs);
      const child = spawnChild(req.command, { shell: true, cwd: req.cwd, env: { ...process.env, ...req.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: limited });
      let timedOut = false;
      const timers: NodeJS.Timeout[] = [];
      const killGroup = (signal: NodeJS.Signals): void => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, signal);
        } catch {
          // The group is gone already.
        }
      };
      if (limited) {
        timers.push(
          setTimeout(() => {
            timedOut = true;
            killGroup('SIGTERM');
            timers.push(setTimeout(() => killGroup('SIGKILL'), req.killGraceMs ?? DEFAULT_KILL_GRACE_MS));
          }, req.timeoutMs),
        );
      }
      child.on('error', (err) => {
        timers.forEach(clearTimeout);
        reject(err);
      });
      child.stdout.on('data', (d: Buffer) => onEvent?.({ type: 'agent-output', runner: req.runner, stream: 'stdout', text: d.toString('utf8') }));
      child.stderr.on('data', (d: Buffer) => onEvent?.({ type: 'agent-output', runner: req.runner, stream: 'stderr', text: d.toString('utf8') }));
      child.stdin.on('error', () => undefined); // an agent that ignores stdin may close it early
      child.stdin.end(req.stdin);
      child.on('close', (code, signal) => {
        timers.forEach(clearTimeout);
        if (timedOut) killGroup('SIGKILL');
        resolvePromise({ code, signal, ...(timedOut ? { timedOut } : {}) });
      });
    });
}

