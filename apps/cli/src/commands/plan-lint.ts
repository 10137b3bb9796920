import { formatSarif, formatStylish, hasErrors, lintPlan } from '@ratchet/plan-lint';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { loadPlanProject } from '../plan-project.js';
import { readVersion } from '../version.js';
import { versioned } from '../output/json-output.js';

/** `ratchet plan lint <plan>`: every finding in the plan and its sub-plans; exit 1 on errors. */
export default async function planLint(ctx: Context, [plan]: string[], options: Record<string, unknown>): Promise<number> {
  if (plan === undefined) throw new CliError('plan lint: missing <plan>');
  const project = await loadPlanProject(ctx, plan, {
    root: options.root as string | undefined,
    dialect: options.dialect as string | undefined,
    fsm: options.fsm as string | undefined,
    registry: options.registry as string | undefined,
  });
  const { findings } = lintPlan(project);
  const failed = hasErrors(findings);
  const format = ctx.json ? 'json' : (options.format as string | undefined) ?? 'stylish';
  if (format === 'sarif') ctx.io.stdout(formatSarif(findings, { toolVersion: readVersion(), root: project.root }));
  else if (format === 'json') {
    const errorCount = findings.filter((f) => f.severity === 'error').length;
    ctx.emitJson(versioned('plan-lint', { ok: errorCount === 0, findings, errorCount, warningCount: findings.length - errorCount }));
  }
  else {
    const text = formatStylish(findings, { color: ctx.color });
    if (text) ctx.out(text.trimEnd());
    else ctx.out(`✔ ${project.entry}: no problems`);
  }
  return failed ? EXIT_PROBLEMS : EXIT_OK;
}
