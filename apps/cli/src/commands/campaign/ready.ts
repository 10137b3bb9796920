import { claimTask, claimTaskLeased, formatSeq, readCampaignWithClaims, readyTasks, type Task } from '@ratchet/campaign-dag';
import { formatLeaseDuration } from '@ratchet/store';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { leaseOption } from '../../lease-option.js';
import { campaignOptionsWithBackend, guard, taskLine } from './shared.js';
import { versioned } from '../../output/json-output.js';
import { recordOpened } from '../../hook/opened.js';

/** `ratchet campaign ready [--claim RUNNER [--lease 15m]]` */
export default async function ready(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const leaseMs = leaseOption(options.lease);
  const opts = await campaignOptionsWithBackend(ctx, options);
  if (typeof options.claim === 'string') {
    const runner = options.claim;
    let task: Task | undefined;
    let leaseUntil: string | undefined;
    let recovered: { runner: string; attempt: number; leaseUntil: string } | undefined;
    if (leaseMs === undefined) task = await guard(ctx, () => claimTask(ctx.cwd, runner, opts));
    else {
      const got = await guard(ctx, () => claimTaskLeased(ctx.cwd, runner, leaseMs, opts));
      task = got?.task;
      leaseUntil = got?.claim.leaseUntil;
      if (got?.claim.recovered !== undefined) recovered = { runner: got.claim.recovered.owner, attempt: got.claim.recovered.attempt, leaseUntil: got.claim.recovered.leaseUntil };
    }
    // The agent now owes this task: the Stop hook must see it, however the claim was made.
    if (task !== undefined) await recordOpened(ctx.cwd, ctx.io.env, { kind: 'claim', key: runner });
    if (ctx.json) ctx.emitJson(versioned('campaign-ready', { ok: true, claimed: task ?? null, ...(leaseUntil === undefined ? {} : { leaseUntil }), ...(recovered === undefined ? {} : { recovered }) }));
    else if (task === undefined) ctx.out('nothing ready to claim');
    else {
      const lease = leaseMs === undefined ? '' : `, lease ${formatLeaseDuration(leaseMs)} until ${leaseUntil ?? '?'} (renew: ratchet campaign heartbeat ${runner})`;
      ctx.out(`claimed ${formatSeq(task.seq)} ${task.slug} for ${runner}${lease}`);
      if (recovered !== undefined) ctx.out(`  taken over from ${recovered.runner}, whose lease expired at ${recovered.leaseUntil} (attempt ${recovered.attempt} lost)`);
    }
    return EXIT_OK;
  }
  // Tasks whose lease expired are ready again: the overlay shows them as pending.
  const tasks = readyTasks((await guard(ctx, () => readCampaignWithClaims(ctx.cwd, opts))).campaign.tasks);
  if (ctx.json) ctx.emitJson(versioned('campaign-ready', { ok: true, ready: tasks }));
  else if (tasks.length === 0) ctx.out('no task is ready (see: ratchet campaign cascade-status)');
  else for (const t of tasks) ctx.out(taskLine(t));
  return EXIT_OK;
}
