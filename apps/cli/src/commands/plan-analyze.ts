import { analyzePlan } from '@ratchet/plan-lint';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { loadPlanProject } from '../plan-project.js';

/** `ratchet plan analyze <plan>`: complexity class by loop nesting and modality, sub-plans included. */
export default async function planAnalyze(ctx: Context, [plan]: string[], options: Record<string, unknown>): Promise<number> {
  if (plan === undefined) throw new CliError('plan analyze: missing <plan>');
  const project = await loadPlanProject(ctx, plan, {
    root: options.root as string | undefined,
    dialect: options.dialect as string | undefined,
    registry: options.registry as string | undefined,
  });
  const analysis = analyzePlan(project);
  if (ctx.json) {
    ctx.emitJson({ ok: true, plan: project.entry, ...analysis });
    return EXIT_OK;
  }
  ctx.out(`${project.entry}`);
  ctx.out(`  complexity: ${analysis.complexity} (loop nesting depth ${analysis.loopDepth})`);
  ctx.out(`  modality:   ${analysis.modality}`);
  if (analysis.plans.length > 1) ctx.out(`  plans read: ${analysis.plans.join(', ')}`);
  return EXIT_OK;
}
