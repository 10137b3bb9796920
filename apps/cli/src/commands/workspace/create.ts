import { createWorkspace, findTask, readCampaign, type PriorKnowledge } from '@ratchet/campaign-dag';
import { existsSync } from 'node:fs';
import { readJsonFile } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_OK } from '../../exit-codes.js';
import { displayPath, resolvePath } from '../../paths.js';
import { priorKnowledgeFromMemory, taskTopic } from '../../memory-campaign.js';
import { configuredEmbedder } from '../../memory-embedder.js';
import { campaignOptionsWithBackend, guard, seqArg } from '../campaign/shared.js';
import { projectMemory } from '../memory/shared.js';
import { sharedStorageOf } from '../../storage.js';

/**
 * `ratchet workspace create SEQ [--prior-knowledge FILE | --memory FILE | --no-memory]`: prior
 * knowledge comes from a file when given, else from a memory query on the task (the memory file,
 * default .ratchet/memory.json, when it exists).
 */
export default async function create(ctx: Context, args: string[], options: Record<string, unknown>): Promise<number> {
  const seq = seqArg(args[0]);
  let priorKnowledge: PriorKnowledge | undefined;
  if (typeof options.priorKnowledge === 'string') priorKnowledge = await readPriorKnowledge(ctx, options.priorKnowledge);
  else if (options.memory !== false) {
    const memoryPath = resolvePath(ctx, typeof options.memory === 'string' ? options.memory : '.ratchet/memory.json');
    const campaign = await guard(ctx, async () => readCampaign(ctx.cwd, (await campaignOptionsWithBackend(ctx, options))));
    const task = await guard(ctx, () => Promise.resolve(findTask(campaign, seq)));
    // A project without memory yet has no prior knowledge from it (on files: no memory file).
    const shared = await sharedStorageOf(ctx);
    if (shared !== undefined || existsSync(memoryPath)) priorKnowledge = await priorKnowledgeFromMemory(await projectMemory(ctx, memoryPath), taskTopic(task, campaign.objective), Date.now(), await configuredEmbedder(ctx.cwd));
  }
  const runner = typeof options.runner === 'string' ? { runner: options.runner } : {};
  const { path, record } = await guard(ctx, async () => createWorkspace(ctx.cwd, seq, { ...(await campaignOptionsWithBackend(ctx, options)), ...runner, ...(priorKnowledge === undefined ? {} : { priorKnowledge }) }));
  const shown = displayPath(ctx, path);
  if (ctx.json) ctx.emitJson({ ok: true, path: shown, workspace: record });
  else {
    const failures = record.priorKnowledge.failures;
    const earlier = failures.filter((f) => !f.injected && f.name.startsWith('attempt-')).length;
    const lost = failures.filter((f) => !f.injected && /^attempt-.*_lost\.\d+$/.test(f.name)).length;
    const siblings = failures.filter((f) => !f.injected).length - earlier;
    const kept = lost === 0 ? 'the failed ones are kept beside it' : lost === earlier ? 'the lost one is kept beside it' : 'the earlier ones are kept beside it';
    ctx.out(`created ${shown}${record.attempt === undefined ? '' : ` (attempt ${record.attempt}; ${kept})`}`);
    ctx.out(
      `  lineage: ${record.lineage.length} parent${record.lineage.length === 1 ? '' : 's'}; prior knowledge: ${earlier - lost > 0 ? `${earlier - lost} earlier failure(s) of this task, ` : ''}${lost > 0 ? `${lost} lost attempt(s), ` : ''}${failures.length - siblings - earlier} failure(s) from memory, ${siblings} sibling failure(s), ${record.priorKnowledge.patterns.length} pattern(s)`,
    );
    for (const f of failures) ctx.out(`  - ${f.injected ? 'failure' : f.name.startsWith('attempt-') ? 'earlier attempt' : 'sibling'} ${f.name}: ${f.trigger}`);
  }
  return EXIT_OK;
}

async function readPriorKnowledge(ctx: Context, file: string): Promise<PriorKnowledge> {
  const abs = resolvePath(ctx, file);
  const { value } = await readJsonFile(abs);
  const v = value as { failures?: unknown; patterns?: unknown } | null;
  const bad = (why: string): never => {
    throw new CliError(`${why}`, { file: displayPath(ctx, abs), code: 'bad-prior-knowledge' });
  };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('expected {"failures": [...], "patterns": [...]}');
  const failures = Array.isArray(v.failures) ? (v.failures as unknown[]) : [];
  const patterns = Array.isArray(v.patterns) ? (v.patterns as unknown[]) : [];
  const str = (o: Record<string, unknown>, k: string, what: string): string => (typeof o[k] === 'string' ? o[k] : bad(`${what}: "${k}" must be a string`));
  const num = (o: Record<string, unknown>, k: string, what: string, fallback?: number): number =>
    typeof o[k] === 'number' && Number.isFinite(o[k]) ? o[k] : fallback !== undefined && o[k] === undefined ? fallback : bad(`${what}: "${k}" must be a number`);
  return {
    failures: failures.map((f, i) => {
      if (typeof f !== 'object' || f === null) return bad(`failures[${i}] must be an object`);
      const o = f as Record<string, unknown>;
      return { name: str(o, 'name', `failures[${i}]`), trigger: str(o, 'trigger', `failures[${i}]`), fix: typeof o.fix === 'string' ? o.fix : '', cost: num(o, 'cost', `failures[${i}]`, 0), ...(typeof o.match === 'string' ? { match: o.match } : {}) };
    }),
    patterns: patterns.map((p, i) => {
      if (typeof p !== 'object' || p === null) return bad(`patterns[${i}] must be an object`);
      const o = p as Record<string, unknown>;
      return { name: str(o, 'name', `patterns[${i}]`), insight: str(o, 'insight', `patterns[${i}]`), saved: num(o, 'saved', `patterns[${i}]`, 0), ...(typeof o.trigger === 'string' ? { trigger: o.trigger } : {}) };
    }),
  };
}
