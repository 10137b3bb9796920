import { MemoryIndex, type Explanation, type QueryHit } from '@ratchet/memory';
import { configuredEmbedder } from '../../memory-embedder.js';
import type { Context } from '../../context.js';
import { EXIT_OK } from '../../exit-codes.js';
import { memoryQueryResult, queryMemory } from '../../operations/memory.js';
import { withInput } from '../../option-values.js';
import { recallInput, type MemoryRecallArgs } from './inputs.js';
import { MATCH_BUDGET, memoryFile, projectMemory, now, truncate } from './shared.js';
import { versioned } from '../../output/json-output.js';

/** `ratchet memory query|explain <topic...>`: read-only unless --record. */
async function query(ctx: Context, input: MemoryRecallArgs): Promise<number> {
  const { topic } = input;
  const file = memoryFile(ctx, input.file);
  const at = now();
  const queryOptions = {
    now: at,
    maxFailures: input.failures,
    maxPatterns: input.patterns,
    threshold: input.threshold,
    tags: input.tags,
    matchBudget: MATCH_BUDGET,
    retrieval: input.retrieval,
  };
  if (input.mode === 'explain') {
    const index = new MemoryIndex(await (await projectMemory(ctx, file.path)).read());
    // Only a project that configured the transformer embedder loads it (and pays for it).
    const embedder = queryOptions.retrieval === 'bm25' ? undefined : await configuredEmbedder(ctx.cwd);
    const { name } = input;
    const explainOptions = name === undefined ? queryOptions : { ...queryOptions, name };
    const explanations = embedder === undefined ? index.explain(topic, explainOptions) : await index.explainWith(embedder, topic, explainOptions);
    if (ctx.json) ctx.emitJson(versioned('memory-explain', { ok: true, file: file.shown, topic, explanations }));
    else if (explanations.length === 0) ctx.out(name === undefined ? `nothing in ${file.shown} reaches relevance ${queryOptions.threshold} for this topic` : `no entry named ${name} in ${file.shown}`);
    else for (const e of explanations) printExplanation(ctx, e);
    return EXIT_OK;
  }

  const found = await queryMemory(ctx, {
    topic,
    failures: queryOptions.maxFailures,
    patterns: queryOptions.maxPatterns,
    threshold: queryOptions.threshold,
    tags: queryOptions.tags,
    retrieval: queryOptions.retrieval,
    record: input.record,
    file: input.file,
  });
  const { result } = found;
  for (const s of result.skipped.slice(0, 5)) ctx.note(`${file.shown}: ${s.name}: ${s.reason}`);
  if (result.skipped.length > 5) ctx.note(`${file.shown}: and ${result.skipped.length - 5} more entries whose match regex was not run (--json lists them)`);
  if (ctx.json) {
    ctx.emitJson(memoryQueryResult(found).document);
    return EXIT_OK;
  }
  if (result.failures.length + result.patterns.length === 0) {
    ctx.out(`no memory reaches relevance ${queryOptions.threshold} for this topic (${result.scanned} entries in ${file.shown})`);
    return EXIT_OK;
  }
  if (result.failures.length > 0) ctx.out(`failures (${result.failures.length}):`);
  for (const h of result.failures) printHit(ctx, h);
  if (result.patterns.length > 0) ctx.out(`patterns (${result.patterns.length}):`);
  for (const h of result.patterns) printHit(ctx, h);
  return EXIT_OK;
}

function printHit(ctx: Context, h: QueryHit): void {
  ctx.out(`  ${h.tier.padEnd(11)} ${h.score.toFixed(2).padStart(6)}  ${h.name}: ${truncate(h.entry.trigger)}`);
  ctx.out(`  ${''.padEnd(19)}${'fix' in h.entry ? 'fix' : 'insight'}: ${truncate('fix' in h.entry ? h.entry.fix : h.entry.insight)}`);
}

function printExplanation(ctx: Context, e: Explanation): void {
  ctx.out(`${e.kind} ${e.name}: ${e.returned ? `rank ${e.rank}, ${e.tier}` : `not returned: ${e.excludedBecause}`}`);
  const s = e.signals;
  ctx.out(`  relevance   ${fmt(e.factors[0]!.value)}${s.match ? `  (match regex hit counts as 1; fused ${fmt(s.relevance)})` : ''}`);
  const r = e.retrieval;
  const rank = (x: number | undefined): string => (x === undefined ? 'unranked' : `rank ${x}`);
  ctx.out(`    bm25      ${fmt(r.bm25.score)}  (${rank(r.bm25.rank)})`);
  for (const t of e.terms) ctx.out(`      term ${JSON.stringify(t.term)}: tf ${t.tf}, idf ${fmt(t.idf)}, contributes ${fmt(t.contribution)}`);
  if (r.semantic !== undefined) {
    ctx.out(`    semantic  ${fmt(r.semantic.score)}  (${rank(r.semantic.rank)}, ${r.semantic.source === 'builtin' ? 'built-in: words, concepts, n-grams' : 'embedder'})`);
    for (const m of e.semantic ?? []) ctx.out(`      word ${JSON.stringify(m.word)}: weight ${fmt(m.weight)}, ${m.via === undefined ? 'no match' : `via ${m.via}, credit ${fmt(m.credit)}`}`);
    ctx.out(`    fused     ${fmt(r.fused.score)}  (${rank(r.fused.rank)}; 1 - (1 - bm25) x (1 - 0.9 x semantic))`);
  }
  ctx.out(`  x value     ${fmt(s.value)}  (log2(${e.kind === 'failure' ? 'cost' : 'saved'} + 1))`);
  ctx.out(`  x help      ${fmt(s.helpRatio)}  ((helped + 1) / (helped + failed + 2))`);
  ctx.out(`  x decay     ${fmt(s.decay)}  (0.5 ^ (${fmt(s.ageDays)} days / 30))`);
  ctx.out(`  = score     ${fmt(e.score)}`);
}

const fmt = (x: number): string => x.toFixed(4);
export default withInput(recallInput, query);
