import { DEFAULT_LEASE_MS, electPlanner, jobName, readActiveRunners, readJobFile, releaseStaleLocks, triage, logPathFor, type TriageDecision } from '@ratchet/jixo-log';
import { leaseOption } from '../../lease-option.js';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { at, guard, logAt, now, userActs } from './shared.js';

/** `ratchet jixo triage <job> --runner ID --active A,B`: Protocol 0, stale locks released under the lock. */
export default async function triageCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const jobPath = at(ctx, args[0]!);
  const { job } = await guard(jobPath, () => readJobFile(jobPath));
  const logPath = typeof options.log === 'string' ? at(ctx, options.log) : logPathFor(jobPath, job);
  const runner = String(options.runner);
  const listed = (typeof options.active === 'string' ? options.active : '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // A live `jixo run` publishes who runs now: runners it started after this agent's snapshot
  // (--active) are active too, and their Locked tasks are not stale.
  const active = [...new Set([...listed, ...(await readActiveRunners(logPath))])].filter((r) => r !== runner);
  let decision: TriageDecision;
  if (options.dryRun === true) {
    const { log } = await guard(logPath, async () => (await logAt(ctx, logPath)).read());
    decision = triage({ log, job, runner, active });
  } else {
    const store = await logAt(ctx, logPath);
    const leaseMs = leaseOption(options.lease) ?? DEFAULT_LEASE_MS;
    const { result } = await guard(logPath, () =>
      store.update(
        (log) => {
          // One time for the decision and the release: a lease cannot expire between the two.
          const at = now();
          const d = triage({ log, job, runner, active, now: Date.parse(at) });
          let next = d.staleLocks.length > 0 ? releaseStaleLocks(log, [...active, runner], { now: at, caller: runner, job: jobName(jobPath, job) }).log : log;
          // The runner told to plan is recorded as the elected Planner: the only one whose Planner moves pass.
          if (d.kind === 'role' && d.role === 'Planner') next = electPlanner(next, runner, { now: at, leaseMs });
          return { log: next, result: d };
        },
        // No active list for the log lock: a runner missing from it (the default --active is empty)
        // may be working right now. A holder that died is recovered by its lease or its owner pid.
        { runner, userActs: userActs(ctx) },
      ),
    );
    decision = result!;
  }
  if (ctx.json) ctx.emitJson({ ok: true, log: logPath, ...decision });
  else {
    if (decision.staleLocks.length > 0) ctx.out(`released stale locks: ${decision.staleLocks.join(', ')}`);
    if (decision.kind === 'role') ctx.out(`role: ${decision.role}${decision.taskId ? ` (task ${decision.taskId})` : ''}\nobjective: ${decision.objective}`);
    else ctx.out(`exit ${decision.code}: ${decision.reason}\nrecord it: ratchet jixo exit ${logPath} --runner ${runner} --code ${decision.code} --reason "${decision.reason}"`);
  }
  return EXIT_OK;
}
