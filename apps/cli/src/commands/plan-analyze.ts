import { analyzePlan } from '@ratchet/plan-lint';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
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
  // A plan the analysis could not follow (missing, or leading out of the project) makes the figures incomplete: exit 1.
  const code = analysis.unread.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
  if (ctx.json) {
    ctx.emitJson({ ok: code === EXIT_OK, plan: project.entry, ...analysis });
    return code;
  }
  ctx.out(`${project.entry}`);
  ctx.out(`  complexity: ${analysis.complexity} (loop nesting depth ${analysis.loopDepth})`);
  ctx.out(`  modality:   ${analysis.modality}`);
  if (analysis.plans.length > 1) ctx.out(`  plans read: ${analysis.plans.join(', ')}`);
  for (const u of analysis.unread) ctx.io.stderr(`${u.path}: not analysed: ${u.reason}\n`);
  return code;
}
