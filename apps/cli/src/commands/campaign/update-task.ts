import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { updateCampaignTask, updateTaskResult, type UpdateTaskInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { updateTaskInput } from './inputs.js';

/**
 * `ratchet campaign update-task SEQ STATUS [--reason R] [--runner R] [--as user]`. A claimed task
 * changes only by its holder (`--runner`) or by the user (`--as user`, refused where the harness
 * pins its agents with RATCHET_ACTOR=agent: the MCP tools and hooks act as the agent).
 */
async function updateTaskCommand(ctx: Context, input: UpdateTaskInput): Promise<number> {
  const task = await updateCampaignTask(ctx, input);
  const result = updateTaskResult(ctx, task);
  if (ctx.json) ctx.emitJson(result.document);
  else ctx.out(`${formatSeq(task.seq)} ${task.slug}: ${task.status}${task.reason === undefined ? '' : ` (${task.reason})`}`);
  return result.exitCode;
}
export default withInput(updateTaskInput, updateTaskCommand);
