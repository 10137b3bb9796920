// A runner process for the task-lease tests: imports the built package (dist).
// Usage: node task-holder.mjs <log> <job> <runner> <leaseMs>
// Claims the first executable task with a lease of <leaseMs> (as `jixo run` assigns one), prints
// {"locked":"<id>"} and then works forever without renewing: the test kills it with SIGKILL.
import { setTimeout as sleep } from 'node:timers/promises';
import { lockTask, readJobFile, triage, updateLogFile } from '../../dist/index.js';

const [log, jobPath, runner, leaseMs] = process.argv.slice(2);
const { job } = await readJobFile(jobPath);
const { result } = await updateLogFile(
  log,
  (l) => {
    const nowMs = Date.now();
    const d = triage({ log: l, job, runner, active: [], claiming: true, now: nowMs });
    if (d.kind !== 'role' || d.role !== 'Runner') return { log: l, result: undefined };
    return { log: lockTask(l, d.taskId, runner, { now: new Date(nowMs).toISOString(), leaseMs: Number(leaseMs) }), result: d.taskId };
  },
  { timeoutMs: 30_000 },
);
process.stdout.write(`${JSON.stringify({ locked: result ?? null })}\n`);
// Stay alive (busy with the task) until killed.
await sleep(10 * 60_000);
