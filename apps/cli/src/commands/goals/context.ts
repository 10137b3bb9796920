/**
 * `ratchet goals context`: the planner's inputs in one bounded document. @ratchet/goals assembles
 * the Frontal Cortex part; memories come from @ratchet/memory, composed here because neither
 * package imports the other.
 */
import { resolve } from 'node:path';
import { planContext, renderPlanContext, type ContextMemory, type PlanContext } from '@ratchet/goals';
import { MemoryIndex } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryFile, projectMemory } from '../memory/shared.js';
import { clockOf, intOption, loadRegistryFor, mapErrors, openState, type Options } from './shared.js';

export default async function context(ctx: Context, _args: string[], options: Options): Promise<number> {
  return mapErrors(ctx, async () => {
    const now = clockOf(options)();
    const registry = await loadRegistryFor(ctx, options);
    const state = await (await openState(ctx, options)).read();
    const query = typeof options.query === 'string' && options.query.trim() !== '' ? options.query : undefined;
    const limits = { now, query, goals: intOption(options.goals, '--goals', 0), actions: intOption(options.limit, '--limit', 0), questions: intOption(options.questions, '--questions', 0) };
    // The memory topic: the query, else what the top goals are about.
    const topic = query ?? planContext(state, registry, limits).goals.map((g) => g.title).join(' ');
    const memories = options.memory === false || topic === '' ? [] : await relevantMemories(ctx, options, topic, now);
    const doc = planContext(state, registry, {
      ...limits,
      memories,
      budget: intOption(options.budget, '--budget', 1),
      // The budget bounds what is printed: the JSON document or the Markdown.
      measure: ctx.json ? undefined : (d: PlanContext) => renderPlanContext(d).length,
    });
    if (ctx.json) ctx.emitJson(doc);
    else ctx.io.stdout(renderPlanContext(doc));
    return EXIT_OK;
  });
}

/** The memory file's query hits for the topic (none when there is no memory file yet). */
async function relevantMemories(ctx: Context, options: Options, topic: string, now: number): Promise<ContextMemory[]> {
  // memoryFile confines the path to the project (exit 2 otherwise).
  const file = memoryFile(ctx, typeof options.memory === 'string' ? options.memory : undefined);
  // No match budget: a time limit would make the result depend on the machine's speed.
  const result = new MemoryIndex(await (await projectMemory(ctx, resolve(file.path))).read()).query(topic, { now });
  return [...result.failures, ...result.patterns].map((h) => ({
    kind: h.kind,
    name: h.name,
    score: Math.round(h.score * 10_000) / 10_000,
    tier: h.tier,
    trigger: h.entry.trigger,
    advice: 'fix' in h.entry ? h.entry.fix : h.entry.insight,
  }));
}
