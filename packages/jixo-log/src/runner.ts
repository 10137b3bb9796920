/**
 * The outer loop (`ratchet jixo run`): per loop, spawn N agent processes concurrently, each a fresh
 * runner with its id, the job, the other active runners, its turn quota, the file paths and the
 * system prompt (environment + stdin); stop when a tasks-exit with code 0 is recorded. A crashed
 * agent is retried (as a new runner) up to `retries` times, after its left-over lock is dropped.
 */
import { spawn as spawnChild } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { NotFoundError, readTextFile, withLock, writeFileAtomic } from '@ratchet/store';
import { JixoError } from './errors.js';
import { releaseRunnerLock, readJobFile, readLogFile, updateLogFile } from './files.js';
import { PLACEHOLDER_TITLE, serializeLog } from './log.js';
import { clearExit } from './ops.js';
import { SYSTEM_PROMPT } from './system-prompt.js';
import type { JobFile, LogFile, TasksExit } from './types.js';

export interface AgentRequest {
  runner: string;
  command: string;
  cwd: string;
  /** Added to the parent's environment. */
  env: Record<string, string>;
  /** Written to the agent's stdin, then closed. */
  stdin: string;
}

export interface AgentOutcome {
  code: number | null;
  signal: string | null;
}

export type SpawnAgent = (request: AgentRequest) => Promise<AgentOutcome>;

export type RunEvent =
  | { type: 'loop-start'; loop: number; runners: string[] }
  | { type: 'agent-exit'; loop: number; runner: string; code: number | null; signal: string | null; attempt: number }
  | { type: 'agent-retry'; loop: number; runner: string; previous: string; attempt: number }
  | { type: 'agent-output'; runner: string; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'loop-end'; loop: number; progress: number; exit?: TasksExit };

export interface RunOptions {
  /** The `*.job.md` file. */
  jobPath: string;
  /** The shell command that starts one agent. */
  agent: string;
  /** Workspace (task.cwd). Default: the job file's directory's parent when it is `.jixo`, else its directory. */
  cwd?: string;
  runners?: number;
  /** Default 20. */
  maxLoops?: number;
  once?: boolean;
  /** Run a job that is already finished (progress 100% or exit 0), clearing its recorded exit. */
  force?: boolean;
  /** Current_Task_Max_Turns_Quota. Default 40. */
  maxTurns?: number;
  /** Retries of a crashed agent. Default 3. */
  retries?: number;
  spawn?: SpawnAgent;
  clock?: () => number;
  systemPrompt?: string;
  onEvent?: (event: RunEvent) => void;
  /** Extra environment for every agent (after the RATCHET_JIXO_* variables, which it cannot override). */
  env?: Record<string, string>;
}

export interface RunResult {
  status: 'completed' | 'skipped' | 'error' | 'max-loops' | 'once' | 'crashed';
  loops: number;
  progress: number;
  exit?: TasksExit;
  logPath: string;
  reason: string;
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
  return withLock(logPath, async () => {
    try {
      await readTextFile(logPath);
      return false;
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      await writeFileAtomic(logPath, serializeLog(initialLog(now)));
      return true;
    }
  });
}

/** The default spawner: the command through the system shell, stdin piped, output forwarded as events. */
export function shellSpawner(onEvent?: (event: RunEvent) => void): SpawnAgent {
  return (req) =>
    new Promise((resolvePromise, reject) => {
      const child = spawnChild(req.command, { shell: true, cwd: req.cwd, env: { ...process.env, ...req.env }, stdio: ['pipe', 'pipe', 'pipe'] });
      child.on('error', reject);
      child.stdout.on('data', (d: Buffer) => onEvent?.({ type: 'agent-output', runner: req.runner, stream: 'stdout', text: d.toString('utf8') }));
      child.stderr.on('data', (d: Buffer) => onEvent?.({ type: 'agent-output', runner: req.runner, stream: 'stderr', text: d.toString('utf8') }));
      child.stdin.on('error', () => undefined); // an agent that ignores stdin may close it early
      child.stdin.end(req.stdin);
      child.on('close', (code, signal) => resolvePromise({ code, signal }));
    });
}

export async function runJob(options: RunOptions): Promise<RunResult> {
  const clock = options.clock ?? Date.now;
  const iso = (): string => new Date(clock()).toISOString();
  const jobPath = resolve(options.jobPath);
  const { job } = await readJobFile(jobPath);
  const name = jobName(jobPath, job);
  const logPath = logPathFor(jobPath, job);
  const runners = options.runners ?? 1;
  const maxLoops = options.once ? 1 : (options.maxLoops ?? 20);
  const retries = options.retries ?? 3;
  if (!Number.isInteger(runners) || runners < 1 || runners > 64) throw new JixoError('bad-argument', `runners must be 1..64, got ${runners}`);
  if (!Number.isInteger(maxLoops) || maxLoops < 1) throw new JixoError('bad-argument', `max loops must be >= 1, got ${maxLoops}`);
  const jobDir = dirname(jobPath);
  const cwd = options.cwd ?? (basename(jobDir) === '.jixo' ? dirname(jobDir) : jobDir);
  const spawn = options.spawn ?? shellSpawner(options.onEvent);
  const prompt = options.systemPrompt ?? SYSTEM_PROMPT;

  await ensureLog(logPath, iso());
  let { log } = await readLogFile(logPath);
  if (log.frontMatter.exit?.code === 0 || log.frontMatter.progress >= 1) {
    if (!options.force) return { status: 'skipped', loops: 0, progress: log.frontMatter.progress, ...(log.frontMatter.exit ? { exit: log.frontMatter.exit } : {}), logPath, reason: 'the job is already finished (use --force to run it again)' };
    log = (await updateLogFile(logPath, (l) => (l.frontMatter.exit ? clearExit(l) : undefined))).log;
  }

  const active = new Set<string>();
  for (let loop = 1; loop <= maxLoops; loop++) {
    const ids = Array.from({ length: runners }, () => runnerId(name, loop, clock));
    ids.forEach((id) => active.add(id));
    // Every runner of this loop, retries included: only their exits end the run (a code 1 left by an
    // earlier run, or code 2 standby, must not).
    const thisLoop = new Set(ids);
    options.onEvent?.({ type: 'loop-start', loop, runners: ids });
    const outcomes = await Promise.all(
      ids.map(async (first) => {
        let id = first;
        for (let attempt = 0; ; attempt++) {
          const others = [...active].filter((r) => r !== id);
          const env: Record<string, string> = {
            ...options.env,
            RATCHET_JIXO_RUNNER: id,
            RATCHET_JIXO_JOB: name,
            RATCHET_JIXO_ACTIVE: others.join(','),
            RATCHET_JIXO_MAX_TURNS: String(options.maxTurns ?? 40),
            RATCHET_JIXO_JOB_FILE: jobPath,
            RATCHET_JIXO_LOG_FILE: logPath,
            RATCHET_JIXO_CWD: cwd,
            RATCHET_JIXO_DIRS: (job.frontMatter.dirs ?? []).join(','),
            RATCHET_JIXO_LOOP: String(loop),
            RATCHET_JIXO_OWNER_PID: String(process.pid),
            // The agent is an agent for every ratchet command it runs (goals' owner rules).
            RATCHET_ACTOR: 'agent',
          };
          const stdin = `${prompt}\n\n<ENVIRONMENT_VALUES>\nTask_Runner: ${id}\nJob_Name: ${name}\nCurrent_Task_Max_Turns_Quota: ${env.RATCHET_JIXO_MAX_TURNS}\nOther_Runner_List: ${others.length > 0 ? others.join(', ') : '(none)'}\ntask.cwd: ${cwd}\ntask.dirs: ${env.RATCHET_JIXO_DIRS || '(none)'}\ntask.filepath: ${jobPath}\ntask.log.filepath: ${logPath}\n</ENVIRONMENT_VALUES>\n`;
          let outcome: AgentOutcome;
          try {
            outcome = await spawn({ runner: id, command: options.agent, cwd, env, stdin });
          } catch {
            outcome = { code: null, signal: 'spawn-error' };
          }
          options.onEvent?.({ type: 'agent-exit', loop, runner: id, code: outcome.code, signal: outcome.signal, attempt });
          await releaseRunnerLock(logPath, id);
          active.delete(id);
          if (outcome.code === 0) return true;
          if (attempt >= retries) return false;
          const previous = id;
          id = runnerId(name, loop, clock);
          active.add(id);
          thisLoop.add(id);
          options.onEvent?.({ type: 'agent-retry', loop, runner: id, previous, attempt: attempt + 1 });
        }
      }),
    );
    ({ log } = await readLogFile(logPath));
    const exit = log.frontMatter.exit;
    // Report the exit this loop recorded (or the job's completion), not one left from earlier loops.
    const fresh = exit !== undefined && (exit.code === 0 || thisLoop.has(exit.runner));
    options.onEvent?.({ type: 'loop-end', loop, progress: log.frontMatter.progress, ...(fresh ? { exit } : {}) });
    const base = { loops: loop, progress: log.frontMatter.progress, logPath, ...(exit ? { exit } : {}) };
    if (exit?.code === 0) return { status: 'completed', ...base, reason: exit.reason };
    if (exit?.code === 1 && thisLoop.has(exit.runner)) return { status: 'error', ...base, reason: exit.reason };
    if (outcomes.every((ok) => !ok)) return { status: 'crashed', ...base, reason: `every agent crashed ${retries + 1} times in loop ${loop}` };
    if (options.once) return { status: 'once', ...base, reason: 'ran one loop (--once)' };
  }
  return { status: 'max-loops', loops: maxLoops, progress: log.frontMatter.progress, logPath, ...(log.frontMatter.exit ? { exit: log.frontMatter.exit } : {}), reason: `stopped after ${maxLoops} loops without a tasks-exit code 0` };
}
