/**
 * The outer loop as a pool: slots restart on their own, a hung agent is killed as a process group,
 * every agent start counts against the quota.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { finishTask, listTasks, parseLogStrict, runJob, updateLogFile, type AgentRequest, type RunEvent } from '../src/index.js';

const ctx = { now: '2030-01-01T00:00:00.000Z' };

async function jobWith(tasks: number): Promise<{ dir: string; job: string; log: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-pool-'));
  const items = Array.from({ length: tasks }, (_, i) => `- [ ] ${i + 1}. task ${i + 1}\n  - status: Pending`).join('\n');
  await writeFile(join(dir, 'p.job.md'), '---\nname: p\n---\n\nGoal.\n');
  await writeFile(join(dir, 'p.log.md'), `---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n${items}\n\n## Work Log\n`);
  return { dir, job: join(dir, 'p.job.md'), log: join(dir, 'p.log.md') };
}

const complete = (req: AgentRequest) => updateLogFile(req.env.RATCHET_JIXO_LOG_FILE!, (l) => finishTask(l, { id: req.env.RATCHET_JIXO_TASK!, runner: req.runner, job: 'p', outcome: 'Completed', summary: `done by ${req.runner}` }, ctx));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runJob pool', () => {
  test('a slot restarts as soon as its agent exits: one slow agent does not hold the others back (no lock-step rounds)', async () => {
    const { job, log } = await jobWith(5);
    let othersDone = 0;
    let release!: () => void;
    const fourDone = new Promise<void>((r) => (release = r));
    const tasksSeen: string[] = [];
    const spawn = async (req: AgentRequest) => {
      tasksSeen.push(req.env.RATCHET_JIXO_TASK!);
      if (req.env.RATCHET_JIXO_TASK === '1') {
        // The slow one finishes only after the other slot ran four agents. In lock-step rounds the
        // other slot would wait for this one after its first agent, and this would time out.
        await Promise.race([fourDone, new Promise((_, reject) => setTimeout(() => reject(new Error('the other slot waited for the slow agent')), 10_000))]);
      }
      await complete(req);
      if (req.env.RATCHET_JIXO_TASK !== '1' && ++othersDone === 4) release();
      return { code: 0, signal: null };
    };
    const result = await runJob({ jobPath: job, agent: 'x', runners: 2, spawn });
    expect(result).toMatchObject({ status: 'completed', runs: 5, progress: 1, exit: { code: 0 } });
    // every task given out exactly once, and the slow slot's agent was the only one of its slot meanwhile
    expect([...tasksSeen].sort()).toEqual(['1', '2', '3', '4', '5']);
    const final = parseLogStrict(await readFile(log, 'utf8'));
    expect(final.workLog).toHaveLength(5);
    expect(result.loops).toBe(4);
  });

  test('8 slots on 40 tasks: every task given to exactly one runner, none taken from a runner started while a slot waited for the lock', async () => {
    const { job, log } = await jobWith(40);
    const by = new Map<string, string[]>();
    const spawn = async (req: AgentRequest) => {
      const task = req.env.RATCHET_JIXO_TASK!;
      by.set(task, [...(by.get(task) ?? []), req.runner]);
      await new Promise((r) => setTimeout(r, Math.random() * 10));
      await complete(req);
      return { code: 0, signal: null };
    };
    const result = await runJob({ jobPath: job, agent: 'x', runners: 8, spawn });
    expect(result).toMatchObject({ status: 'completed', runs: 40, progress: 1 });
    expect([...by.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
    for (const runners of by.values()) expect(runners).toHaveLength(1);
    const final = parseLogStrict(await readFile(log, 'utf8'));
    expect(final.workLog).toHaveLength(40);
  }, 60_000);

  test('every agent start counts against the run quota; the job stops when it is used up, saying so', async () => {
    const { job } = await jobWith(1);
    let starts = 0;
    // An agent that never finishes its task: without a counted quota this would run forever.
    const spawn = () => {
      starts++;
      return Promise.resolve({ code: 0, signal: null });
    };
    const result = await runJob({ jobPath: job, agent: 'x', runners: 2, maxRuns: 3, spawn, idlePollMs: 5 });
    expect(starts).toBe(3);
    expect(result).toMatchObject({ status: 'quota', runs: 3 });
    expect(result.reason).toBe('the turn quota is used up: 3 agent runs of 3 (--max-runs), and the job is not finished (progress 0%)');
    // crashes count too
    let crashes = 0;
    const crashing = await runJob({ jobPath: job, agent: 'x', runners: 1, maxRuns: 2, retries: 10, spawn: () => Promise.resolve({ code: ++crashes && 1, signal: null }) });
    expect(crashes).toBe(2);
    expect(crashing).toMatchObject({ status: 'quota', runs: 2 });
  });

  test('a slot with no executable task waits for an agent to exit instead of starting agents that would only stand by', async () => {
    const { job } = await jobWith(1);
    const events: RunEvent[] = [];
    const spawn = async (req: AgentRequest) => {
      await new Promise((r) => setTimeout(r, 100));
      await complete(req);
      return { code: 0, signal: null };
    };
    const result = await runJob({ jobPath: job, agent: 'x', runners: 3, spawn, idlePollMs: 20, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'completed', runs: 1 });
    expect(events.filter((e) => e.type === 'agent-start')).toHaveLength(1);
    expect(events.some((e) => e.type === 'slot-idle')).toBe(true);
  });

  test.skipIf(process.platform === 'win32')(
    'a hung agent is killed after the agent timeout, its whole process group (SIGTERM ignored: SIGKILL), its task lock released and the kill logged',
    async () => {
      const { dir, job, log } = await jobWith(1);
      // The shell and a background child both ignore SIGTERM (an ignored signal stays ignored across exec).
      const agent = `trap '' TERM; (trap '' TERM; sleep 60) & echo $! > ${join(dir, 'child.pid')}; sleep 60`;
      const events: RunEvent[] = [];
      const t0 = Date.now();
      const result = await runJob({ jobPath: job, agent, maxRuns: 1, agentTimeoutMs: 500, killGraceMs: 300, onEvent: (e) => events.push(e) });
      const took = Date.now() - t0;
      expect(took).toBeLessThan(20_000);
      expect(result).toMatchObject({ status: 'quota', runs: 1 });
      const timeout = events.find((e) => e.type === 'agent-timeout');
      expect(timeout).toMatchObject({ type: 'agent-timeout', timeoutMs: 500, released: ['1'] });
      expect(events.find((e) => e.type === 'agent-exit')).toMatchObject({ timedOut: true });
      const child = Number(await readFile(join(dir, 'child.pid'), 'utf8'));
      for (let i = 0; i < 50 && alive(child); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(child)).toBe(false);
      const final = parseLogStrict(await readFile(log, 'utf8'));
      expect(listTasks(final)[0]).toMatchObject({ id: '1', status: 'Pending' });
      expect(listTasks(final)[0]!.runner).toBeUndefined();
      expect(final.workLog[0]).toMatchObject({ objective: 'Task 1. task 1', result: 'Pending' });
      expect(final.workLog[0]!.summary).toContain('killed');
      expect(final.workLog[0]!.blocker).toBeUndefined();
      expect(existsSync(`${log}.lock`)).toBe(false);
    },
    30_000,
  );

  test('bad pool settings are refused before anything runs', async () => {
    const { job } = await jobWith(1);
    const spawn = () => Promise.reject(new Error('must not start'));
    await expect(runJob({ jobPath: job, agent: 'x', maxRuns: 0, spawn })).rejects.toThrow(/max runs must be >= 1/);
    await expect(runJob({ jobPath: job, agent: 'x', agentTimeoutMs: -5, spawn })).rejects.toThrow(/agent timeout must be > 0/);
    await expect(runJob({ jobPath: job, agent: 'x', runners: 65, spawn })).rejects.toThrow(/runners must be 1..64/);
  });
});
