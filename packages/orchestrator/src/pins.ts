/**
 * The plan that runs is the plan that was linted: `pinPlans` records the content (SHA-256) of a
 * plan and of every sub-plan its call_plan lines reach, and the path each registry name resolved
 * to. The plan stack compares a sub-plan with its pin when it is called (PlanChangedError when it
 * differs); the caller lints it again and either refuses the step or pins the new content.
 */
import { createHash } from 'node:crypto';
import { hasPlaceholder, parsePlan, resolveCall, type PlanNode, type PlanRefusal, type PlanRegistry } from '@ratchet/plan-lint';
import type { PlanPins } from './types.js';

export const planSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

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
