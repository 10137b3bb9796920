import { CAMPAIGN_MAX_BYTES, PlanError, addTasks, formatSeq, waves } from '@ratchet/campaign-dag';
import { parseJson, readJsonFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { readStdinLimited } from '../../stdin.js';
import { campaignOptionsWithBackend, formatProblem, guard } from './shared.js';

/** `ratchet campaign add-tasks [plan]`: the plan from a file or stdin, every problem at once. */
export default async function addTasksCommand(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [file] = args;
  let value: unknown;
  let text: string;
  let shown: string;
  if (file === undefined && ctx.io.stdinIsTTY === true) {
    // Nothing piped and no file: reading the terminal would wait forever for an agent.
    throw new CliError('no plan given: pass a plan file (ratchet campaign add-tasks plan.json) or pipe one (cat plan.json | ratchet campaign add-tasks); "-" reads the terminal until end of input');
  }
  if (file === undefined || file === '-') {
    shown = '<stdin>';
    text = await readStdinLimited(ctx, CAMPAIGN_MAX_BYTES, 'the plan');
    value = parseJson(text, { path: shown });
  } else {
    const abs = resolvePath(ctx, file);
    shown = displayPath(ctx, abs);
    // Guarded read: size limit (a plan may be as large as the campaign it fills), no binary, parse
    // errors with line:column, __proto__ keys refused.
    ({ value, text } = await readJsonFile(abs, { maxBytes: CAMPAIGN_MAX_BYTES }));
  }
  // The claim queue learns of the newly ready tasks with the add (leased claims take them from there).
  const opts = await campaignOptionsWithBackend(ctx, options);
  try {
    const { campaign, added } = await guard(ctx, () => addTasks(ctx.cwd, value, { ...opts, text, source: shown }));
    const layers = waves(campaign.tasks);
    if (ctx.json) ctx.emitJson({ ok: true, added: added.map((t) => t.seq), total: campaign.tasks.length, waves: layers.length });
    else ctx.out(`added ${added.length} task${added.length === 1 ? '' : 's'} (${seqList(added.map((t) => t.seq))}); ${campaign.tasks.length} in the campaign, ${layers.length} wave${layers.length === 1 ? '' : 's'}`);
    return EXIT_OK;
  } catch (err) {
    if (!(err instanceof PlanError)) throw err;
    if (ctx.json) ctx.emitJson({ ok: false, file: shown, problems: err.problems });
    // Problems are the one thing --quiet does not silence.
    for (const p of err.problems.slice(0, 200)) ctx.io.stderr(`${formatProblem(shown, p)}\n`);
    if (err.problems.length > 200) ctx.io.stderr(`... and ${err.problems.length - 200} more\n`);
    ctx.io.stderr(`${err.problems.length} problem${err.problems.length === 1 ? '' : 's'}; nothing was added\n`);
    return err.graphOnly ? EXIT_PROBLEMS : EXIT_USAGE;
  }
}

/** The seqs, or the first and last few of a long list (a 100,000-task plan is not echoed back). */
function seqList(seqs: number[]): string {
  if (seqs.length <= 12) return seqs.map(formatSeq).join(', ');
  return `${seqs.slice(0, 5).map(formatSeq).join(', ')}, ... ${seqs.length - 10} more ..., ${seqs.slice(-5).map(formatSeq).join(', ')}`;
}
