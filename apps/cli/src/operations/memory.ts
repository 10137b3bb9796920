/**
 * The memory area's query as a typed operation (`ratchet memory query`; the MCP tool
 * `memory_query`): the failures and patterns relevant to a topic, best first, and the document
 * `--json` prints for them (memory-query.v1). The command renders the same hits for people.
 */
import { MemoryIndex, recordAccess, type QueryHit, type QueryResult } from '@ratchet/memory';
import { MATCH_BUDGET, checkedNumber, memoryFile, now, projectMemory, type NumberRange } from '../commands/memory/shared.js';
import type { Context } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { configuredEmbedder } from '../memory-embedder.js';
import { versioned } from '../output/json-output.js';
import type { OperationResult } from './invoke.js';
import type { MemoryQueryInput } from './memory-input.js';

export type { MemoryQueryInput } from './memory-input.js';

export interface MemoryQueryFound {
  /** The memory file: absolute, and as shown (relative to the project). */
  file: { path: string; shown: string };
  topic: string;
  threshold: number;
  result: QueryResult;
}

/** A count or threshold in its range (the command's own check), or undefined when not given. */
const inRange = (value: number | undefined, flag: string, range: NumberRange): number | undefined => (value === undefined ? undefined : checkedNumber(value, String(value), flag, range));

/** The entries relevant to `topic`, best first. Read-only unless `record`. */
export async function queryMemory(ctx: Context, input: MemoryQueryInput): Promise<MemoryQueryFound> {
  const file = memoryFile(ctx, { file: input.file });
  const at = now();
  const threshold = inRange(input.threshold, '--threshold', { min: 0, max: 1 }) ?? 0.25;
  const options = {
    now: at,
    maxFailures: inRange(input.failures, '--failures', { min: 0, max: 1000, integer: true }) ?? 5,
    maxPatterns: inRange(input.patterns, '--patterns', { min: 0, max: 1000, integer: true }) ?? 3,
    threshold,
    tags: input.tags ?? [],
    matchBudget: MATCH_BUDGET,
    retrieval: input.retrieval ?? 'hybrid',
  };
  const memory = await projectMemory(ctx, file.path);
  const index = new MemoryIndex(await memory.read());
  // Only a project that configured the transformer embedder loads it (and pays for it).
  const embedder = options.retrieval === 'bm25' ? undefined : await configuredEmbedder(ctx.cwd);
  const result = embedder === undefined ? index.query(input.topic, options) : await index.queryWith(embedder, input.topic, options);
  if (input.record === true && result.failures.length + result.patterns.length > 0) {
    const names = [...result.failures, ...result.patterns].map((h) => h.name);
    await memory.update((draft) => recordAccess(draft, names, at));
  }
  return { file, topic: input.topic, threshold, result };
}

export function memoryQueryResult(found: MemoryQueryFound): OperationResult {
  const { file, topic, result } = found;
  return {
    exitCode: EXIT_OK,
    document: versioned('memory-query', { ok: true, file: file.shown, topic, failures: result.failures.map(hitJson), patterns: result.patterns.map(hitJson), skipped: result.skipped, scanned: result.scanned }),
  };
}

function hitJson(h: QueryHit): Record<string, unknown> {
  const e = h.entry;
  const body = 'fix' in e ? { fix: e.fix, match: e.match, cost: e.cost } : { insight: e.insight, saved: e.saved };
  return { kind: h.kind, name: h.name, tier: h.tier, relevance: round(h.relevance), score: round(h.score), trigger: e.trigger, ...body, source: e.source, signals: { ...h.signals, relevance: round(h.signals.relevance), decay: round(h.signals.decay), helpRatio: round(h.signals.helpRatio), value: round(h.signals.value), ageDays: round(h.signals.ageDays) } };
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;
