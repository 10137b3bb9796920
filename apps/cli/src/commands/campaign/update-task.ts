import { formatSeq, updateTask, type TaskStatus } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard, seqArg } from './shared.js';

/** `ratchet campaign update-task SEQ STATUS [--reason R] [--runner R]` */
export default async function updateTaskCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const seq = seqArg(args[0]);
  const status = args[1] as TaskStatus;
  const reason = typeof options.reason === 'string' ? options.reason : undefined;
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  const opts = await campaignOptionsWithBackend(ctx, options);
  const task = await guard(ctx, () => updateTask(ctx.cwd, seq, status, { ...opts, ...(reason === undefined ? {} : { reason }), ...(runner === undefined ? {} : { runner }) }));
  if (ctx.json) ctx.emitJson({ ok: true, task });
  else ctx.out(`${formatSeq(task.seq)} ${task.slug}: ${task.status}${task.reason === undefined ? '' : ` (${task.reason})`}`);
  return EXIT_OK;
}
