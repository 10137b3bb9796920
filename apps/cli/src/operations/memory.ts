/**
 * The memory area's query as a typed operation (`ratchet memory query`; the MCP tool
 * `memory_query`): the failures and patterns relevant to a topic, best first, and the document
 * `--json` prints for them (memory-query.v1). The command renders the same hits for people.
 */
import {
  MemoryIndex,
  addFailure,
  addPattern,
  feedback as giveFeedback,
  link as linkEntries,
  prune as pruneMemory,
  recordAccess,
  stats as memoryStats,
  type AddResult,
  type Entry,
  type MemoryData,
  type MemoryStats,
  type PruneResult,
  type QueryHit,
  type QueryResult,
} from '@ratchet/memory';
import { MATCH_BUDGET, checkedNumber, memoryFile, now, projectMemory, withMemoryErrors, type NumberRange } from '../commands/memory/shared.js';
import type { Context } from '../context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../exit-codes.js';
import { configuredEmbedder } from '../memory-embedder.js';
import { versioned } from '../output/json-output.js';
import type { OperationResult } from './invoke.js';
import type { MemoryAddFailureInput, MemoryAddPatternInput, MemoryFeedbackInput, MemoryLinkInput, MemoryPruneInput, MemoryQueryInput, MemoryStatsInput } from './memory-input.js';

export type { MemoryAddFailureInput, MemoryAddPatternInput, MemoryFeedbackInput, MemoryLinkInput, MemoryPruneInput, MemoryQueryInput, MemoryStatsInput } from './memory-input.js';
export { MEMORY_EDGE_TYPES } from './memory-input.js';

/** The memory file an operation works on: absolute, and as shown (relative to the project). */
export interface MemoryFileRef {
  path: string;
  shown: string;
}

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
  const file = memoryFile(ctx, input.file);
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

// ---- writes: add, feedback, link, prune; and stats -------------------------------------------

export interface MemoryAdded {
  kind: 'failure' | 'pattern';
  file: MemoryFileRef;
  result: AddResult;
}

const REFUSED = new Error('refused');

/** `memory add-failure`: quality gates, near-duplicate merge, caps; one locked update, nothing written on a refusal. */
export async function addMemoryFailure(ctx: Context, input: MemoryAddFailureInput): Promise<MemoryAdded> {
  const file = memoryFile(ctx, input.file);
  const cost = checkedNumber(input.cost, String(input.cost), '--cost', { min: 0 });
  const entry = { ...addCommon(input), fix: input.fix, cost, match: input.match };
  return addEntry(ctx, 'failure', file, (draft, at) => addFailure(draft, entry, { now: at }));
}

/** `memory add-pattern`: as addMemoryFailure, for something that worked. */
export async function addMemoryPattern(ctx: Context, input: MemoryAddPatternInput): Promise<MemoryAdded> {
  const file = memoryFile(ctx, input.file);
  const saved = checkedNumber(input.saved, String(input.saved), '--saved', { min: 0 });
  const entry = { ...addCommon(input), insight: input.insight, saved };
  return addEntry(ctx, 'pattern', file, (draft, at) => addPattern(draft, entry, { now: at }));
}

function addCommon(input: MemoryAddFailureInput | MemoryAddPatternInput): { name: string | undefined; trigger: string; source: string[] | undefined; tags: string[] | undefined } {
  return { name: input.name, trigger: input.trigger, source: input.source, tags: input.tags };
}

async function addEntry(ctx: Context, kind: MemoryAdded['kind'], file: MemoryFileRef, add: (draft: MemoryData, at: number) => AddResult): Promise<MemoryAdded> {
  const at = now();
  let result: AddResult | undefined;
  try {
    await withMemoryErrors(file.shown, async () =>
      (await projectMemory(ctx, file.path, { createParentDirs: true })).update((draft) => {
        result = add(draft, at);
        // Throwing inside update writes nothing: a refusal leaves the file (or its absence) as it was.
        if (result.status === 'refused') throw REFUSED;
      }),
    );
  } catch (err) {
    if (err !== REFUSED) throw err;
  }
  return { kind, file, result: result! };
}

/** Exit 1 when a quality gate refused the entry (the document lists the refusals). */
export function memoryAddResult(added: MemoryAdded): OperationResult {
  const r = added.result;
  return { exitCode: r.status === 'refused' ? EXIT_PROBLEMS : EXIT_OK, document: { ok: r.status !== 'refused', file: added.file.shown, ...r } };
}

export interface MemoryFeedbackGiven {
  file: MemoryFileRef;
  name: string;
  outcome: MemoryFeedbackInput['outcome'];
  entry: Entry;
  /** (helped + 1) / (helped + failed + 2), as ranking uses it. */
  helpRatio: number;
}

/** `memory feedback`: whether a remembered entry helped. */
export async function giveMemoryFeedback(ctx: Context, input: MemoryFeedbackInput): Promise<MemoryFeedbackGiven> {
  const file = memoryFile(ctx, input.file);
  const at = now();
  let entry: Entry | undefined;
  await withMemoryErrors(file.shown, async () => (await projectMemory(ctx, file.path)).update((draft) => void (entry = giveFeedback(draft, input.name, input.outcome, at))));
  const e = entry!;
  return { file, name: input.name, outcome: input.outcome, entry: e, helpRatio: (e.times_helped + 1) / (e.times_helped + e.times_failed + 2) };
}

export function memoryFeedbackResult(given: MemoryFeedbackGiven): OperationResult {
  const { file, name, outcome, entry: e, helpRatio } = given;
  return { exitCode: EXIT_OK, document: { ok: true, file: file.shown, name, outcome, times_helped: e.times_helped, times_failed: e.times_failed, helpRatio } };
}

export interface MemoryLinked extends Omit<MemoryLinkInput, 'file'> {
  file: MemoryFileRef;
}

/** `memory link`: a typed edge between two entries (its inverse at the other end). */
export async function linkMemory(ctx: Context, input: MemoryLinkInput): Promise<MemoryLinked> {
  const file = memoryFile(ctx, input.file);
  await withMemoryErrors(file.shown, async () => (await projectMemory(ctx, file.path)).update((draft) => linkEntries(draft, input.from, input.to, input.type)));
  return { file, from: input.from, to: input.to, type: input.type };
}

export function memoryLinkResult(linked: MemoryLinked): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, file: linked.file.shown, from: linked.from, to: linked.to, type: linked.type } };
}

export interface MemoryPruned {
  file: MemoryFileRef;
  dryRun: boolean;
  minImportance: number;
  result: PruneResult;
}

/** `memory prune`: forget entries below the importance threshold and enforce the caps (a dry run writes nothing). */
export async function pruneProjectMemory(ctx: Context, input: MemoryPruneInput): Promise<MemoryPruned> {
  const file = memoryFile(ctx, input.file);
  const minImportance = inRange(input.minImportance, '--min-importance', { min: 0 }) ?? 0.1;
  const at = now();
  const memory = await projectMemory(ctx, file.path);
  const dryRun = input.dryRun === true;
  let result: PruneResult;
  if (dryRun) result = pruneMemory(structuredClone(await memory.read()), { now: at, minImportance });
  else {
    let r: PruneResult | undefined;
    await memory.update((draft) => void (r = pruneMemory(draft, { now: at, minImportance })));
    result = r!;
  }
  return { file, dryRun, minImportance, result };
}

export function memoryPruneResult(pruned: MemoryPruned): OperationResult {
  return { exitCode: EXIT_OK, document: { ok: true, file: pruned.file.shown, dryRun: pruned.dryRun, ...pruned.result } };
}

export interface MemoryStatsFound {
  file: MemoryFileRef;
  stats: MemoryStats;
}

/** `memory stats`: counts, caps, feedback, relations, what prune would remove, the most important entries. */
export async function memoryStatsOf(ctx: Context, input: MemoryStatsInput): Promise<MemoryStatsFound> {
  const file = memoryFile(ctx, input.file);
  return { file, stats: memoryStats(await (await projectMemory(ctx, file.path)).read(), now()) };
}

export function memoryStatsResult(found: MemoryStatsFound): OperationResult {
  const s = found.stats;
  return { exitCode: EXIT_OK, document: { ok: true, file: found.file.shown, ...s, tags: { ...s.tags } } };
}
