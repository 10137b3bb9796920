import type { Context } from '../context.js';
import { analyzePlanFile, analyzePlanResult, type PlanCheckInput } from '../operations/plan.js';
import { withInput } from '../option-values.js';
import { planCheckInput } from './plan-inputs.js';

/** `ratchet plan analyze <plan>`: complexity class by loop nesting and modality, sub-plans included. */
async function planAnalyze(ctx: Context, input: PlanCheckInput): Promise<number> {
  const { entry, analysis } = await analyzePlanFile(ctx, input);
  const result = analyzePlanResult(ctx, { entry, analysis });
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  ctx.out(`${entry}`);
  ctx.out(`  complexity: ${analysis.complexity} (loop nesting depth ${analysis.loopDepth})`);
  ctx.out(`  modality:   ${analysis.modality}`);
  if (analysis.plans.length > 1) ctx.out(`  plans read: ${analysis.plans.join(', ')}`);
  for (const u of analysis.unread) ctx.io.stderr(`${u.path}: not analysed: ${u.reason}\n`);
  return result.exitCode;
}

export default withInput(planCheckInput, planAnalyze);
