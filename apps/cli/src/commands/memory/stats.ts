import type { Context } from '../../context.js';
import { memoryStatsOf, memoryStatsResult, type MemoryStatsInput } from '../../operations/memory.js';
import { withInput } from '../../option-values.js';
import { statsInput } from './inputs.js';

/** `ratchet memory stats`. */
async function stats(ctx: Context, input: MemoryStatsInput): Promise<number> {
  const found = await memoryStatsOf(ctx, input);
  const result = memoryStatsResult(found);
  if (ctx.json) {
    ctx.emitJson(result.document);
    return result.exitCode;
  }
  const { file, stats: s } = found;
  ctx.out(`${file.shown}: ${s.failures}/${s.caps.failures} failures, ${s.patterns}/${s.caps.patterns} patterns, ${s.edges} relations`);
  ctx.out(`feedback: ${s.feedback.helped} helped, ${s.feedback.failed} failed; ${s.prunable} prunable now`);
  if (s.oldest !== undefined) ctx.out(`learned between ${s.oldest} and ${s.newest}`);
  if (s.top.length > 0) ctx.out('most important:');
  for (const t of s.top) ctx.out(`  ${t.importance.toFixed(2).padStart(6)}  ${t.kind} ${t.name}`);
  const tags = Object.entries(s.tags);
  if (tags.length > 0) ctx.out(`tags: ${tags.map(([k, v]) => `${k} (${v})`).join(', ')}`);
  return result.exitCode;
}
export default withInput(statsInput, stats);
