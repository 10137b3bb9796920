import { formatSeq } from '@ratchet/campaign-dag';
import type { Context } from '../../context.js';
import { addCampaignTasks, addTasksResult, type AddTasksInput } from '../../operations/campaign.js';
import { withInput } from '../../option-values.js';
import { addTasksInput } from './inputs.js';
import { formatProblem } from './shared.js';

/** `ratchet campaign add-tasks [plan]`: the plan from a file or stdin, every problem at once. */
async function addTasksCommand(ctx: Context, input: AddTasksInput): Promise<number> {
  const outcome = await addCampaignTasks(ctx, input);
  const result = addTasksResult(ctx, outcome);
  if (outcome.kind === 'added') {
    const { added, campaign, waves } = outcome;
    if (ctx.json) ctx.emitJson(result.document);
    else ctx.out(`added ${added.length} task${added.length === 1 ? '' : 's'} (${seqList(added.map((t) => t.seq))}); ${campaign.tasks.length} in the campaign, ${waves} wave${waves === 1 ? '' : 's'}`);
    return result.exitCode;
  }
  if (ctx.json) ctx.emitJson(result.document);
  const { file, problems } = outcome;
  // Problems are the one thing --quiet does not silence.
  for (const p of problems.slice(0, 200)) ctx.io.stderr(`${formatProblem(file, p)}\n`);
  if (problems.length > 200) ctx.io.stderr(`... and ${problems.length - 200} more\n`);
  ctx.io.stderr(`${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was added\n`);
  return result.exitCode;
}
export default withInput(addTasksInput, addTasksCommand);

/** The seqs, or the first and last few of a long list (a 100,000-task plan is not echoed back). */
function seqList(seqs: number[]): string {
  if (seqs.length <= 12) return seqs.map(formatSeq).join(', ');
  return `${seqs.slice(0, 5).map(formatSeq).join(', ')}, ... ${seqs.length - 10} more ..., ${seqs.slice(-5).map(formatSeq).join(', ')}`;
}
