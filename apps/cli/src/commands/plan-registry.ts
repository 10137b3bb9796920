import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { deregisterPlanName, registerPlanName, registryCall, registryEntryResult } from '../operations/plan.js';
import { withInput } from '../option-values.js';
import { DEFAULT_REGISTRY } from '../plan-project.js';
import { planRegistryInput, type PlanRegistryCall } from './plan-inputs.js';

/** `ratchet plan registry register|deregister|list`: logical plan names for call_plan, kept in a store document. */
async function planRegistry(ctx: Context, input: PlanRegistryCall): Promise<number> {
  if (input.action === 'list') {
    const registry = input.registry ?? DEFAULT_REGISTRY;
    const { listPlans } = await import('@ratchet/plan-lint/registry');
    const plans = await registryCall(registry, () => listPlans(registry, ctx.cwd));
    if (ctx.json) ctx.emitJson({ ok: true, registry, plans });
    else if (plans.length === 0) ctx.out(`no plans registered in ${registry}`);
    else for (const p of plans) ctx.out(`${p.name}  ${p.path}`);
    return EXIT_OK;
  }
  const registered = input.action === 'register';
  const entry = registered ? await registerPlanName(ctx, input) : await deregisterPlanName(ctx, input);
  const result = registryEntryResult(ctx, entry);
  if (ctx.json) ctx.emitJson(result.document);
  else if (registered) ctx.out(`registered ${entry.name} -> ${entry.path} in ${entry.registry}`);
  else ctx.out(`deregistered ${entry.name} (was ${entry.path}) from ${entry.registry}`);
  return result.exitCode;
}

export default withInput(planRegistryInput, planRegistry);
