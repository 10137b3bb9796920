// A runner process for the reliability tests: imports the built package (dist).
// Usage: node runner.mjs <mode> <log> <job> <runner> [active,...]
//   work: triage, lock, complete until the job is done (exit code 0 recorded or standby with nothing left)
//   hold-task-and-lock: lock one task, then take the log lock (detached, owned by this pid) and sleep
//   hold-bound-lock: lock one task, then hold a process-bound store lock and sleep
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireLock } from '@ratchet/store';
import { finishTask, lockLog, lockTask, readJobFile, recordExit, triage, updateLogFile } from '../../dist/index.js';

const [mode, log, jobPath, runner, activeList = ''] = process.argv.slice(2);
const active = activeList.split(',').filter(Boolean);
const { job } = await readJobFile(jobPath);
const now = () => ({ now: new Date().toISOString() });
const opts = { timeoutMs: 30_000 };

async function claim() {
  const { result } = await updateLogFile(
    log,
    (l) => {
      const d = triage({ log: l, job, runner, active });
      if (d.kind === 'role' && d.role === 'Runner') return { log: lockTask(l, d.taskId, runner, now()), result: d };
      if (d.kind === 'exit' && d.code === 0) return { log: recordExit(l, { code: 0, reason: d.reason, runner, time: now().now }, now()), result: d };
      return { log: l, result: d };
    },
    opts,
  );
  return result;
}

if (mode === 'work') {
  let done = 0;
  for (let i = 0; i < 10_000; i++) {
    const d = await claim();
    if (d.kind === 'exit' && d.code === 0) break;
    if (d.kind === 'exit' && d.code === 2) {
      await sleep(5);
      continue;
    }
    if (d.kind !== 'role' || d.role !== 'Runner') throw new Error(`unexpected decision ${JSON.stringify(d)}`);
    await updateLogFile(log, (l) => finishTask(l, { id: d.taskId, runner, job: 'job', outcome: 'Completed', summary: `done by ${runner}` }, now()), opts);
    done++;
  }
  process.stdout.write(`${JSON.stringify({ runner, done })}\n`);
} else if (mode === 'hold-task-and-lock' || mode === 'hold-bound-lock') {
  const d = await claim();
  if (d.kind !== 'role' || d.role !== 'Runner') throw new Error('no task to hold');
  if (mode === 'hold-task-and-lock') await lockLog(log, { runner, ownerPid: process.pid, leaseMs: Number.POSITIVE_INFINITY });
  else await acquireLock(log, { extra: { runner } });
  process.stdout.write(`holding ${d.taskId}\n`);
  await sleep(60_000);
}
