import type { Context } from '../../context.js';
import { finishResearch, finishResearchResult } from '../../operations/orchestrator-research.js';
import type { StepResultInput } from '../../operations/orchestrator-input.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { stepResultInput } from './inputs.js';

/**
 * `ratchet research done [--failed --message M]`: leave the research cycle once its plan's steps are
 * done and the report holds findings (src/operations/orchestrator-research.ts); exit 1 while the
 * report is missing, and for `--failed` (a failure report).
 */
async function researchDone(ctx: Context, input: StepResultInput): Promise<number> {
  const outcome = await finishResearch(ctx, input);
  const result = finishResearchResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (!outcome.left) {
    ctx.io.stderr(`ratchet: ${outcome.message}\n`);
    return result.exitCode;
  }
  const next = outcome.session;
  ctx.out(outcome.failed ? `Research failed: task ${next.taskId} is in ERROR.` : `Research complete: task ${next.taskId} is back in ${next.state}${next.state === 'EXECUTING' ? ' (the paused plan resumes)' : ''}.`);
  printDirective(ctx, next);
  return result.exitCode;
}

export default withInput(stepResultInput, researchDone);
