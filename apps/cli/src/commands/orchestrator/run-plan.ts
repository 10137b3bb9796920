import { formatStylish } from '@ratchet/plan-lint';
import type { Context } from '../../context.js';
import { submitPlan, submitPlanResult, type RunPlanInput } from '../../operations/orchestrator-run.js';
import { withInput } from '../../option-values.js';
import { printDirective } from '../../task-session.js';
import { runPlanInput } from './inputs.js';

/**
 * `ratchet run plan <file>`: the orchestrator's PLANNING gate (src/operations/orchestrator-run.ts).
 * With lint errors the task stays in PLANNING and the findings are printed (exit 1); a clean plan
 * goes on the stack and its first step is the directive.
 */
async function runPlan(ctx: Context, input: RunPlanInput): Promise<number> {
  const outcome = await submitPlan(ctx, input);
  const result = submitPlanResult(ctx, outcome);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  if (!outcome.accepted) {
    ctx.out(formatStylish(outcome.findings, { color: ctx.color }).trimEnd());
    ctx.out(`\nPlan rejected: task ${outcome.session.taskId} stays in PLANNING. Fix the plan and run \`ratchet run plan ${input.plan}\` again.`);
    return result.exitCode;
  }
  const warnings = formatStylish(outcome.findings, { color: ctx.color }).trimEnd();
  if (warnings) ctx.out(warnings);
  ctx.out(`Plan ${outcome.entry} accepted: task ${outcome.session.taskId} is ${outcome.session.state}.`);
  printDirective(ctx, outcome.session);
  return result.exitCode;
}

export default withInput(runPlanInput, runPlan);
