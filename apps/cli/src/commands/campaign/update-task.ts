import { formatSeq, updateTask, type TaskStatus } from '@ratchet/campaign-dag';
import { pinnedActor } from '../../actor.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { campaignOptionsWithBackend, guard, seqArg } from './shared.js';

/**
 * `ratchet campaign update-task SEQ STATUS [--reason R] [--runner R] [--as user]`. A claimed task
 * changes only by its holder (`--runner`) or by the user (`--as user`, refused where the harness
 * pins its agents with RATCHET_ACTOR=agent: the MCP tools and hooks act as the agent).
 */
export default async function updateTaskCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const seq = seqArg(args[0]);
  const status = args[1] as TaskStatus;
  const reason = typeof options.reason === 'string' ? options.reason : undefined;
  const runner = typeof options.runner === 'string' ? options.runner : undefined;
  const asUser = options.as === 'user';
  if (asUser && pinnedActor(ctx) === 'agent') {
    throw new CliError('--as user is refused: this environment sets RATCHET_ACTOR=agent (an agent cannot override a claim; the user runs this from their own shell)', { code: 'actor-pinned' });
  }
  const opts = await campaignOptionsWithBackend(ctx, options);
  const task = await guard(ctx, () => updateTask(ctx.cwd, seq, status, { ...opts, ...(reason === undefined ? {} : { reason }), ...(runner === undefined ? {} : { runner }), ...(asUser ? { asUser } : {}) }));
  if (ctx.json) ctx.emitJson({ ok: true, task });
  else ctx.out(`${formatSeq(task.seq)} ${task.slug}: ${task.status}${task.reason === undefined ? '' : ` (${task.reason})`}`);
  return EXIT_OK;
}
