/**
 * The plan that runs is the plan that was linted. `pinsOf` records the content (SHA-256) of every
 * plan lint read (the root and every sub-plan it reached, `{file}` targets included, as lint's
 * simulated file system bound them) and the registry lint resolved names through. The run resolves
 * call_plan names through that registry, so a name registered or re-pointed later changes nothing,
 * and the plan stack compares a sub-plan with its pin when it is called: a plan that differs, or one
 * lint never read, is PlanChangedError, and the step is refused (a change is a new plan, linted whole
 * by `run plan`). `pinPlans` is the older walk from the root, which cannot follow `{file}` targets.
 */
import { createHash } from 'node:crypto';
import { hasPlaceholder, parsePlan, resolveCall, type PlanNode, type PlanRefusal, type PlanRegistry } from '@ratchet/plan-lint';
import type { PlanPins } from './types.js';

export const planSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Pins from what lint read: project-relative path -> the text it linted, and the registry it used. */
export function pinsOf(read: ReadonlyMap<string, string>, registry: PlanRegistry | undefined): PlanPins {
  const plans: Record<string, string> = {};
  for (const [path, text] of read) plans[path] = planSha256(text);
  const names: Record<string, string> = {};
  for (const [name, path] of Object.entries(registry ?? {})) names[name] = path;
  return { plans, registry: names };
}

/** Pins for `entry` and everything it reaches (targets with `{file}` are resolved per file at run time and pinned then). */
export function pinPlans(entry: string, options: { readPlan(relPath: string): string | undefined | PlanRefusal; registry?: PlanRegistry | undefined }): PlanPins {
  const pins: PlanPins = { plans: {}, registry: {} };
  const queue = [entry];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (Object.hasOwn(pins.plans, path)) continue;
    const text = options.readPlan(path);
    if (typeof text !== 'string') continue; // lint reported it; the stack refuses it at run time
    pins.plans[path] = planSha256(text);
    const targets: string[] = [];
    const walk = (nodes: readonly PlanNode[]): void => {
      for (const node of nodes) {
        if (node.kind === 'for_each_file') walk(node.body);
        else if (node.kind === 'call_plan' && !hasPlaceholder(node.target)) targets.push(node.target);
      }
    };
    walk(parsePlan(text, path).plan.body);
    for (const target of targets) {
      const r = resolveCall(target, options.registry);
      if (!r.ok) continue;
      if (r.via === 'registry') pins.registry[target] = r.path;
      queue.push(r.path);
    }
  }
  return pins;
}
