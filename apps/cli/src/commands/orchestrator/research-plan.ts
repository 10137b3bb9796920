import type { Context } from '../../context.js';
import { planResearch, planResearchResult } from '../../operations/orchestrator-research.js';
import type { ResearchPlanInput } from '../../operations/orchestrator-input.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { researchPlanInput } from './inputs.js';

/**
 * `ratchet research plan "<topic>"`: write research/<id>/plan.txt and, in PLANNING or EXECUTING,
 * enter the research cycle (src/operations/orchestrator-research.ts). Without a task in progress it
 * only writes the plan; in any other state it is refused (exit 1) and writes nothing.
 */
async function researchPlanCommand(ctx: Context, input: ResearchPlanInput): Promise<number> {
  const outcome = await planResearch(ctx, input);
  const result = planResearchResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { session } = outcome;
  ctx.out(`Research plan written to ${outcome.plan}; it writes ${outcome.report}.`);
  if (outcome.entered && session) {
    const paused = session.research?.from === 'EXECUTING' ? ' (the running plan is paused until `ratchet research done`)' : '';
    ctx.out(`Task ${session.taskId} entered the research cycle: ${session.state}${paused}.`);
    printDirective(ctx, session);
  } else ctx.out(session ? `(task ${session.taskId} is ${session.state}: no task in progress, the lifecycle is unchanged)` : '(no task session: the lifecycle is unchanged)');
  return result.exitCode;
}

export default withInput(researchPlanInput, researchPlanCommand);
