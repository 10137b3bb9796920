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
import { withInput } from '../../option-values.js';
import { memoryFile, projectMemory } from '../memory/shared.js';
import { contextInput, type ContextInput } from './goals-inputs.js';
import { clockOf, loadRegistryFor, mapErrors, openState } from './shared.js';

async function context(ctx: Context, input: ContextInput): Promise<number> {
  return mapErrors(ctx, async () => {
    const now = clockOf(input)();
    const registry = await loadRegistryFor(ctx, input);
    const state = await (await openState(ctx, input)).read();
    const { query } = input;
    const limits = { now, query, goals: input.goals, actions: input.limit, questions: input.questions };
    // The memory topic: the query, else what the top goals are about.
    const topic = query ?? planContext(state, registry, limits).goals.map((g) => g.title).join(' ');
    const memories = input.memory === false || topic === '' ? [] : await relevantMemories(ctx, input.memory, topic, now);
    const doc = planContext(state, registry, {
      ...limits,
      memories,
      budget: input.budget,
      // The budget bounds what is printed: the JSON document or the Markdown.
      measure: ctx.json ? undefined : (d: PlanContext) => renderPlanContext(d).length,
    });
    if (ctx.json) ctx.emitJson(doc);
    else ctx.io.stdout(renderPlanContext(doc));
    return EXIT_OK;
  });
}

/** The memory file's query hits for the topic (none when there is no memory file yet). */
async function relevantMemories(ctx: Context, memory: string | undefined, topic: string, now: number): Promise<ContextMemory[]> {
  // memoryFile confines the path to the project (exit 2 otherwise).
  const file = memoryFile(ctx, memory, '--memory');
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

export default withInput(contextInput, context);
