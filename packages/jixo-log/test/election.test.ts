/**
 * Issue 27: Planner election and the runner lists agents receive. The pool's agents triage for
 * themselves (as `ratchet jixo triage` does: their start-time snapshot joined with the live list the
 * loop publishes); an agent the loop made the Planner must not be talked out of it by a runner that
 * has exited since, and the lists must name only runners that actually started.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { finishTask, readActiveRunners, readJobFile, runJob, triage, updateLogFile, type AgentRequest, type RunEvent, type TriageDecision } from '../src/index.js';

const LOG = (tasks: string): string => `---\ntitle: "t"\nprogress: "0%"\n---\n\n## Roadmap\n\n${tasks}\n\n## Work Log\n`;

async function project(tasks: string): Promise<{ job: string; log: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'jixo-election-'));
  await writeFile(join(dir, 'p.job.md'), '---\nname: p\n---\n\nGoal.\n');
  await writeFile(join(dir, 'p.log.md'), LOG(tasks));
  return { job: join(dir, 'p.job.md'), log: join(dir, 'p.log.md') };
}

/** What an agent's `ratchet jixo triage --active "$RATCHET_JIXO_ACTIVE"` decides (the CLI joins the published list). */
async function agentTriage(req: AgentRequest): Promise<TriageDecision> {
  const logPath = req.env.RATCHET_JIXO_LOG_FILE!;
  const { job } = await readJobFile(req.env.RATCHET_JIXO_JOB_FILE!);
  const listed = req.env.RATCHET_JIXO_ACTIVE!.split(',').filter(Boolean);
  const active = [...new Set([...listed, ...(await readActiveRunners(logPath))])].filter((r) => r !== req.runner);
  const { result } = await updateLogFile(logPath, (log) => ({ log, result: triage({ log, job, runner: req.runner, active }) }), { runner: req.runner });
  return result!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Planner election in the outer loop', () => {
  test('the runner the loop made Planner is still the Planner in its own triage after an older runner exited', async () => {
    // Task 1 runs long in slot 1 (runner X); slot 2's runner fails task 2, so the next runner of slot 2
    // (P) is made the Planner while X still works. X then finishes and exits; only then does P triage.
    const { job, log } = await project('- [ ] 1. long\n  - status: Pending\n- [ ] 2. doomed\n  - status: Pending');
    let plannerStarted!: () => void;
    const plannerUp = new Promise<void>((r) => (plannerStarted = r));
    let xExited!: () => void;
    const xGone = new Promise<void>((r) => (xExited = r));
    const planner: { decision?: TriageDecision; snapshot?: string } = {};
    const spawn = async (req: AgentRequest) => {
      const role = req.env.RATCHET_JIXO_ROLE;
      const task = req.env.RATCHET_JIXO_TASK;
      if (role === 'Runner' && task === '1') {
        await Promise.race([plannerUp, sleep(15_000)]);
        await updateLogFile(log, (l) => finishTask(l, { id: '1', runner: req.runner, job: 'p', outcome: 'Completed', summary: 'done' }, { now: new Date().toISOString() }));
        setTimeout(xExited, 50);
        return { code: 0, signal: null };
      }
      if (role === 'Runner' && task === '2') {
        await updateLogFile(log, (l) => finishTask(l, { id: '2', runner: req.runner, job: 'p', outcome: 'Failed', summary: 'broke' }, { now: new Date().toISOString() }));
        return { code: 0, signal: null };
      }
      if (role === 'Planner' && planner.decision === undefined) {
        planner.snapshot = req.env.RATCHET_JIXO_ACTIVE;
        plannerStarted();
        await Promise.race([xGone, sleep(15_000)]);
        await sleep(100);
        planner.decision = await agentTriage(req);
        return { code: 0, signal: null };
      }
      return { code: 0, signal: null };
    };
    await runJob({ jobPath: job, agent: 'x', runners: 2, maxRuns: 4, spawn, idlePollMs: 20 });
    expect(planner.decision, `snapshot ${planner.snapshot ?? ''}`).toMatchObject({ kind: 'role', role: 'Planner', step: 'failed-task' });
    expect(await readFile(log, 'utf8')).toContain('status: Failed');
  }, 60_000);

  test('the runner lists an agent receives (environment and the published file) name only runners that started', async () => {
    const { job, log } = await project('- [ ] 1. a\n  - status: Pending');
    const events: RunEvent[] = [];
    const lists: { runner: string; env: string[]; published: string[] }[] = [];
    const spawn = async (req: AgentRequest) => {
      lists.push({ runner: req.runner, env: req.env.RATCHET_JIXO_ACTIVE!.split(',').filter(Boolean), published: await readActiveRunners(log) });
      await sleep(300);
      lists.push({ runner: req.runner, env: [], published: await readActiveRunners(log) });
      await updateLogFile(log, (l) => finishTask(l, { id: req.env.RATCHET_JIXO_TASK!, runner: req.runner, job: 'p', outcome: 'Completed', summary: 'done' }, { now: new Date().toISOString() }));
      return { code: 0, signal: null };
    };
    const result = await runJob({ jobPath: job, agent: 'x', runners: 3, spawn, idlePollMs: 20, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'completed', runs: 1 });
    const started = new Set(events.flatMap((e) => (e.type === 'agent-start' ? [e.runner] : [])));
    for (const l of lists) {
      for (const r of [...l.env, ...l.published]) expect(started.has(r), `${l.runner} was told ${r} is active, but it never started`).toBe(true);
    }
  }, 60_000);
});
