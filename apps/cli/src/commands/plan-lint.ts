import { formatSarif, formatStylish } from '@ratchet/plan-lint';
import type { Context } from '../context.js';
import { lintPlanFile, lintPlanResult, type PlanCheckInput } from '../operations/plan.js';
import { withInput } from '../option-values.js';
import { readVersion } from '../version.js';
import { planLintInput, type LintFormat } from './plan-inputs.js';

/** `ratchet plan lint <plan>`: every finding in the plan and its sub-plans; exit 1 on errors. */
async function planLint(ctx: Context, input: PlanCheckInput & { format: LintFormat }): Promise<number> {
  const outcome = await lintPlanFile(ctx, input);
  const result = lintPlanResult(ctx, outcome);
  const format = ctx.json ? 'json' : input.format;
  if (format === 'sarif') ctx.io.stdout(formatSarif(outcome.findings, { toolVersion: readVersion(), root: outcome.root }));
  else if (format === 'json') ctx.emitJson(result.document);
  else {
    const text = formatStylish(outcome.findings, { color: ctx.color });
    if (text) ctx.out(text.trimEnd());
    else ctx.out(`✔ ${outcome.entry}: no problems`);
  }
  return result.exitCode;
}

export default withInput(planLintInput, planLint);
