import { stats as memoryStats } from '@ratchet/memory';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryFile, projectMemory, now } from './shared.js';

/** `ratchet memory stats`. */
export default async function stats(ctx: Context, _args: string[], options: Record<string, unknown>): Promise<number> {
  const file = memoryFile(ctx, options);
  const s = memoryStats(await (await projectMemory(ctx, file.path)).read(), now());
  if (ctx.json) {
    ctx.emitJson({ ok: true, file: file.shown, ...s, tags: { ...s.tags } });
    return EXIT_OK;
  }
  ctx.out(`${file.shown}: ${s.failures}/${s.caps.failures} failures, ${s.patterns}/${s.caps.patterns} patterns, ${s.edges} relations`);
  ctx.out(`feedback: ${s.feedback.helped} helped, ${s.feedback.failed} failed; ${s.prunable} prunable now`);
  if (s.oldest !== undefined) ctx.out(`learned between ${s.oldest} and ${s.newest}`);
  if (s.top.length > 0) ctx.out('most important:');
  for (const t of s.top) ctx.out(`  ${t.importance.toFixed(2).padStart(6)}  ${t.kind} ${t.name}`);
  const tags = Object.entries(s.tags);
  if (tags.length > 0) ctx.out(`tags: ${tags.map(([k, v]) => `${k} (${v})`).join(', ')}`);
  return EXIT_OK;
}
