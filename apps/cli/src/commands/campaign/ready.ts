import { claimTask, formatSeq, listReady } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptions, guard, taskLine } from './shared.js';
import { versioned } from '../../output/json-output.js';

/** `ratchet campaign ready [--claim RUNNER]` */
export default async function ready(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const opts = campaignOptions(ctx, options);
  if (typeof options.claim === 'string') {
    const runner = options.claim;
    const task = await guard(ctx, () => claimTask(ctx.cwd, runner, opts));
    if (ctx.json) ctx.emitJson(versioned('campaign-ready', { ok: true, claimed: task ?? null }));
    else if (task === undefined) ctx.out('nothing ready to claim');
    else ctx.out(`claimed ${formatSeq(task.seq)} ${task.slug} for ${runner}`);
    return EXIT_OK;
  }
  const tasks = await guard(ctx, () => listReady(ctx.cwd, opts));
  if (ctx.json) ctx.emitJson(versioned('campaign-ready', { ok: true, ready: tasks }));
  else if (tasks.length === 0) ctx.out('no task is ready (see: ratchet campaign cascade-status)');
  else for (const t of tasks) ctx.out(taskLine(t));
  return EXIT_OK;
}
