import { deregisterPlan, listPlans, PlanRegistryError, registerPlan } from '@ratchet/plan-lint/registry';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { DEFAULT_REGISTRY } from '../plan-project.js';

/** `ratchet plan registry register|deregister|list`: logical plan names for call_plan, kept in a store document. */
export default async function planRegistry(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const [action, name, path] = args;
  const registry = (options.registry as string | undefined) ?? DEFAULT_REGISTRY;
  try {
    if (action === 'list') {
      const plans = await listPlans(registry, ctx.cwd);
      if (ctx.json) ctx.emitJson({ ok: true, registry, plans });
      else if (plans.length === 0) ctx.out(`no plans registered in ${registry}`);
      else for (const p of plans) ctx.out(`${p.name}  ${p.path}`);
      return EXIT_OK;
    }
    if (name === undefined) throw new CliError(`plan registry ${action}: missing <name>`);
    if (action === 'register') {
      if (path === undefined) throw new CliError('plan registry register: missing <path>');
      // A fresh repository has no knowledge_core/ yet: registering the first plan creates it.
      const entry = await registerPlan(registry, ctx.cwd, name, path, { force: options.force === true, store: { createParentDirs: true } });
      if (ctx.json) ctx.emitJson({ ok: true, registry, ...entry });
      else ctx.out(`registered ${entry.name} -> ${entry.path} in ${registry}`);
      return EXIT_OK;
    }
    const entry = await deregisterPlan(registry, ctx.cwd, name);
    if (ctx.json) ctx.emitJson({ ok: true, registry, ...entry });
    else ctx.out(`deregistered ${entry.name} (was ${entry.path}) from ${registry}`);
    return EXIT_OK;
  } catch (err) {
    // Registry refusals (duplicate, unknown name, plan outside the project) are input errors: exit 2.
    // A bad plan path is about the plan (the message names it), the rest about the registry file.
    if (err instanceof PlanRegistryError) {
      const aboutPlan = err.code === 'outside-root' || err.code === 'plan-not-found' || err.code === 'not-a-file';
      const message = err.code === 'duplicate-name' ? err.message.replace(/; pass force to replace it$/, '; pass --force to replace it') : err.message;
      throw new CliError(message, { code: err.code, ...(aboutPlan ? {} : { file: registry }) });
    }
    throw err;
  }
}
