/**
 * The plan checks and the plan registry as typed operations (`ratchet plan lint|analyze|registry`;
 * the MCP tools `plan_lint`, `plan_analyze`, `plan_registry_register|deregister`): each answers with
 * a typed outcome, and `xxxResult` turns it into the document `--json` prints and the exit code.
 */
import { analyzePlan, hasErrors, lintPlan, type Analysis, type Finding } from '@ratchet/plan-lint';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { versioned } from '../output/json-output.js';
import { DEFAULT_REGISTRY, loadPlanProject } from '../plan-project.js';
import type { OperationResult } from './invoke.js';
import type { DeregisterPlanInput, PlanCheckInput, RegisterPlanInput } from './plan-input.js';

export type { DeregisterPlanInput, PlanCheckInput, RegisterPlanInput } from './plan-input.js';

/** Every finding in the plan and its sub-plans. */
export interface PlanLintOutcome {
  /** The plan as the project names it (relative to the root). */
  entry: string;
  /** The root, absolute (SARIF's base). */
  root: string;
  findings: Finding[];
}

/** Lint a plan and its sub-plans. An unreadable plan, dialect or FSM is an input error (exit 2), never a finding. */
export async function lintPlanFile(ctx: Context, input: PlanCheckInput): Promise<PlanLintOutcome> {
  const project = await loadPlanProject(ctx, input.plan, { root: input.root, dialect: input.dialect, fsm: input.fsm, registry: input.registry });
  return { entry: project.entry, root: project.root, findings: lintPlan(project).findings };
}

/** plan-lint.v1; exit 1 when there are errors (a check that found problems). */
export function lintPlanResult(_ctx: Context, o: PlanLintOutcome): OperationResult {
  const errorCount = o.findings.filter((f) => f.severity === 'error').length;
  return {
    exitCode: hasErrors(o.findings) ? EXIT_PROBLEMS : EXIT_OK,
    document: versioned('plan-lint', { ok: errorCount === 0, findings: o.findings, errorCount, warningCount: o.findings.length - errorCount }),
  };
}

/** The complexity class and modality of a plan, sub-plans included. */
export interface PlanAnalyzeOutcome {
  entry: string;
  analysis: Analysis;
}

export async function analyzePlanFile(ctx: Context, input: PlanCheckInput): Promise<PlanAnalyzeOutcome> {
  const project = await loadPlanProject(ctx, input.plan, { root: input.root, dialect: input.dialect, registry: input.registry });
  return { entry: project.entry, analysis: analyzePlan(project) };
}

/** A plan the analysis could not follow (missing, or leading out of the project) makes the figures incomplete: exit 1. */
export function analyzePlanResult(_ctx: Context, o: PlanAnalyzeOutcome): OperationResult {
  const exitCode = o.analysis.unread.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
  return { exitCode, document: { ok: exitCode === EXIT_OK, plan: o.entry, ...o.analysis } };
}

/** A registry entry as written or removed, and the registry file it is in. */
export interface RegistryEntryOutcome {
  registry: string;
  name: string;
  path: string;
}

/** Register a plan file under a name for call_plan; a fresh repository's first plan creates knowledge_core/. */
export async function registerPlanName(ctx: Context, input: RegisterPlanInput): Promise<RegistryEntryOutcome> {
  const registry = input.registry ?? DEFAULT_REGISTRY;
  const { registerPlan } = await import('@ratchet/plan-lint/registry');
  const entry = await registryCall(registry, () => registerPlan(registry, ctx.cwd, input.name, input.path, { force: input.force === true, store: { createParentDirs: true } }));
  return { registry, ...entry };
}

/** Remove a plan name from the registry. */
export async function deregisterPlanName(ctx: Context, input: DeregisterPlanInput): Promise<RegistryEntryOutcome> {
  const registry = input.registry ?? DEFAULT_REGISTRY;
  const { deregisterPlan } = await import('@ratchet/plan-lint/registry');
  const entry = await registryCall(registry, () => deregisterPlan(registry, ctx.cwd, input.name));
  return { registry, ...entry };
}

export function registryEntryResult(_ctx: Context, o: RegistryEntryOutcome): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, ...o } };
}

/**
 * Registry refusals (duplicate, unknown name, plan outside the project) are input errors: exit 2.
 * A bad plan path is about the plan (the message names it), the rest about the registry file.
 */
export async function registryCall<T>(registry: string, call: () => Promise<T>): Promise<T> {
  const { PlanRegistryError } = await import('@ratchet/plan-lint/registry');
  try {
    return await call();
  } catch (err) {
    if (err instanceof PlanRegistryError) {
      const aboutPlan = err.code === 'outside-root' || err.code === 'plan-not-found' || err.code === 'not-a-file';
      const message = err.code === 'duplicate-name' ? err.message.replace(/; pass force to replace it$/, '; pass --force to replace it') : err.message;
      throw new CliError(message, { code: err.code, ...(aboutPlan ? {} : { file: registry }) });
    }
    throw err;
  }
}
