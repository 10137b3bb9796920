/**
 * Retrieval: which memories matter for a topic, ranked, tiered, explained.
 *
 * relevance is hybrid by default: BM25 (bm25.ts, good on error strings) fused with a semantic signal
 * (good on paraphrases): the built-in one (semantic.ts: stems, concepts, n-grams) or a user's
 * embedder (cosine similarity, negatives read as 0). `retrieval: 'bm25'` turns the semantic signal
 * off. A safe `match` regex that hits the topic makes relevance 1. Entries below
 * the threshold (default 0.25) are not returned; the rest are tiered by relevance (critical >= 0.6,
 * productive >= 0.4, exploration >= 0.25) and ranked by score (score.ts), best first, ties by name.
 */
import { Bm25Index, type TermContribution } from './bm25.js';
import { fuse, rankOf } from './fusion.js';
import { SemanticIndex, type SemanticMatch } from './semantic.js';
import { MATCH_SUBJECT_LIMIT, checkRegex } from '@ratchet/store';
import { decay, DEFAULT_THRESHOLD, helpRatio, tierOf, valueFactor, type Tier } from './score.js';
import type { Entry, EntryKind, MemoryData } from './types.js';

/** A model you plug in: texts in, one vector per text out (same length for all). */
export interface Embedder {
  embed(texts: readonly string[]): readonly (readonly number[])[] | Promise<readonly (readonly number[])[]>;
}

export interface QueryOptions {
  /** Milliseconds since the epoch (ages are measured from it). */
  now: number;
  /** Minimum relevance (default 0.25). */
  threshold?: number;
  /** How many failures and patterns to return (defaults 5 and 3, as FTL). */
  maxFailures?: number;
  maxPatterns?: number;
  /** Only entries carrying all these tags. */
  tags?: readonly string[];
  /**
   * A time limit for the `match` regexes of one query, measured with the clock you pass (monotonic
   * milliseconds, e.g. `() => performance.now()`). The guard bounds each accepted pattern (the worst
   * ones it lets through take up to most of a second on a 256-character topic); this bounds their
   * sum when a memory holds hundreds of them. Entries met once it is spent are scored without their
   * regex and listed in `skipped`. Absent: no limit, and results depend on nothing but the input.
   */
  matchBudget?: { ms: number; clock: () => number };
  /** `hybrid` (default): BM25 fused with the semantic signal; `bm25`: lexical only, as before 0.2. */
  retrieval?: Retrieval;
}

export type Retrieval = 'hybrid' | 'bm25';

/** One retrieval signal's verdict on an entry: its score in [0, 1] and its rank among all entries (undefined at 0). */
export interface SignalRank {
  score: number;
  rank: number | undefined;
}

/** What `explain` shows about retrieval: each signal, and the fused relevance. */
export interface RetrievalSignals {
  bm25: SignalRank;
  /** Absent with `retrieval: 'bm25'`. */
  semantic: (SignalRank & { source: 'builtin' | 'embedder' }) | undefined;
  fused: SignalRank;
}

export interface Signals {
  /** Fused relevance in [0, 1] (BM25 and the semantic signal), before the match override. */
  relevance: number;
  /** True when the entry's `match` regex hit the topic (relevance then counts as 1). */
  match: boolean;
  /** log2(cost + 1) or log2(saved + 1). */
  value: number;
  helpRatio: number;
  decay: number;
  ageDays: number;
}

export interface QueryHit {
  kind: EntryKind;
  name: string;
  tier: Tier;
  /** max(relevance, match ? 1 : 0). */
  relevance: number;
  score: number;
  signals: Signals;
  entry: Entry;
}

export interface SkippedEntry {
  name: string;
  reason: string;
}

export interface QueryResult {
  topic: string;
  failures: QueryHit[];
  patterns: QueryHit[];
  /** Entries whose `match` regex was refused (hand-edited memory.json); they were scored without it. */
  skipped: SkippedEntry[];
  /** Entries considered. */
  scanned: number;
}

export interface Explanation {
  kind: EntryKind;
  name: string;
  /** In the returned top list? If not, why not. */
  returned: boolean;
  rank: number | undefined;
  excludedBecause: string | undefined;
  tier: Tier | undefined;
  score: number;
  signals: Signals;
  /** BM25 per query term. */
  terms: TermContribution[];
  /** Each retrieval signal's score and rank, and the fused relevance. */
  retrieval: RetrievalSignals;
  /** How each query word met the entry in the built-in semantic signal (absent with an embedder or bm25 only). */
  semantic: SemanticMatch[] | undefined;
  /** Each multiplicative factor, in the order they are multiplied. */
  factors: { signal: 'relevance' | 'value' | 'helpRatio' | 'decay'; value: number }[];
}

interface Row {
  kind: EntryKind;
  entry: Entry;
  doc: number;
  /** Precomputed at build: the parts of the score that do not depend on the topic or the clock. */
  value: number;
  helpRatio: number;
  /** Age reference (last_accessed, else created_at) in ms; NaN if unparsable. */
  since: number;
  match: string | null;
}

const DAY_MS = 86_400_000;

/** Every signal's relevance for one topic, per document. */
interface Relevance {
  bm25: Float64Array;
  semantic: Float64Array | undefined;
  source: 'builtin' | 'embedder' | undefined;
  fused: Float64Array;
}

/** The regex time budget of one query in progress. */
interface Meter {
  ms: number;
  clock: () => number;
  start: number;
}

function makeRow(kind: EntryKind, entry: Entry, doc: number): Row {
  const pattern = kind === 'failure' ? (entry as { match: string | null }).match : null;
  return { kind, entry, doc, value: valueFactor(entry), helpRatio: helpRatio(entry), since: Date.parse(entry.last_accessed ?? entry.created_at), match: pattern === '' ? null : pattern };
}

/** The text an entry is found by. */
export function entryText(entry: Entry): string {
  const body = 'fix' in entry ? entry.fix : entry.insight;
  return `${entry.name} ${entry.trigger} ${body} ${(entry.tags ?? []).join(' ')}`;
}

/**
 * A query index over one snapshot of memory. Building it tokenises every entry once; reuse it for
 * several queries over unchanged data (it does not see later mutations).
 */
export class MemoryIndex {
  private readonly rows: Row[] = [];
  private readonly texts: string[] = [];
  private readonly lexical: Bm25Index;
  private semanticIndex: SemanticIndex | undefined;
  private readonly regexes = new Map<string, RegExp | string>();

  constructor(data: MemoryData) {
    for (const entry of data.failures) {
      this.rows.push(makeRow('failure', entry, this.texts.length));
      this.texts.push(entryText(entry));
    }
    for (const entry of data.patterns) {
      this.rows.push(makeRow('pattern', entry, this.texts.length));
      this.texts.push(entryText(entry));
    }
    this.lexical = new Bm25Index(this.texts);
  }

  get size(): number {
    return this.rows.length;
  }

  /** The built-in semantic index, built on first use (a `retrieval: 'bm25'` caller never pays for it). */
  private get semantic(): SemanticIndex {
    return (this.semanticIndex ??= new SemanticIndex(this.texts));
  }

  /** Entries for a topic: BM25 fused with the built-in semantic signal (or BM25 alone with `retrieval: 'bm25'`). */
  query(topic: string, options: QueryOptions): QueryResult {
    return this.rank(topic, this.builtinRelevance(topic, options), options);
  }

  /** The same with your embedder as the semantic signal, fused with BM25. */
  async queryWith(embedder: Embedder, topic: string, options: QueryOptions): Promise<QueryResult> {
    return this.rank(topic, await this.embedderRelevance(embedder, topic, options), options);
  }

  /** Every signal behind one entry's score for a topic (or behind each entry, if `name` is absent). */
  explain(topic: string, options: QueryOptions & { name?: string }): Explanation[] {
    return this.explainFrom(topic, this.builtinRelevance(topic, options), options);
  }

  async explainWith(embedder: Embedder, topic: string, options: QueryOptions & { name?: string }): Promise<Explanation[]> {
    return this.explainFrom(topic, await this.embedderRelevance(embedder, topic, options), options);
  }

  private builtinRelevance(topic: string, options: QueryOptions): Relevance {
    const bm25 = this.lexical.scores(topic);
    if (options.retrieval === 'bm25') return { bm25, semantic: undefined, source: undefined, fused: bm25 };
    const semantic = this.semantic.scores(topic);
    return { bm25, semantic, source: 'builtin', fused: fuse(bm25, semantic) };
  }

  private async embedderRelevance(embedder: Embedder, topic: string, options: QueryOptions): Promise<Relevance> {
    const bm25 = this.lexical.scores(topic);
    const semantic = await this.embedRelevance(embedder, topic);
    // With an embedder, `bm25` means what it says: the embedder is not consulted for the ranking's lexical half only.
    if (options.retrieval === 'bm25') return { bm25, semantic: undefined, source: undefined, fused: bm25 };
    return { bm25, semantic, source: 'embedder', fused: fuse(bm25, semantic) };
  }

  private async embedRelevance(embedder: Embedder, topic: string): Promise<Float64Array> {
    const vectors = await embedder.embed([topic, ...this.texts]);
    if (vectors.length !== this.rows.length + 1) throw new TypeError(`embedder returned ${vectors.length} vectors for ${this.rows.length + 1} texts`);
    const q = vectors[0]!;
    const out = new Float64Array(this.rows.length);
    for (const row of this.rows) out[row.doc] = Math.max(0, Math.min(1, cosine(q, vectors[row.doc + 1]!)));
    return out;
  }

  private signals(row: Row, relevance: number, topic: string, now: number, skipped: SkippedEntry[] | undefined, meter: Meter | undefined): Signals {
    let match = false;
    if (row.match !== null) {
      const regex = this.compiled(row.match);
      if (typeof regex === 'string') skipped?.push({ name: row.entry.name, reason: `match ${JSON.stringify(row.match)} not run: ${regex}` });
      else if (meter !== undefined && meter.clock() - meter.start > meter.ms) skipped?.push({ name: row.entry.name, reason: `match ${JSON.stringify(row.match)} not run: this query's regex time budget of ${meter.ms} ms is spent` });
      else match = regex.test(topic.slice(0, MATCH_SUBJECT_LIMIT));
    }
    const days = Number.isFinite(row.since) ? Math.max(0, (now - row.since) / DAY_MS) : 0;
    return { relevance, match, value: row.value, helpRatio: row.helpRatio, decay: decay(days), ageDays: days };
  }

  private compiled(pattern: string): RegExp | string {
    let hit = this.regexes.get(pattern);
    if (hit === undefined) {
      const verdict = checkRegex(pattern);
      hit = verdict.safe ? verdict.regex : verdict.reason;
      this.regexes.set(pattern, hit);
    }
    return hit;
  }

  /** Scores rows; with `minRelevance`, rows that cannot reach it (below it and no regex) are skipped unscored. */
  private scored(topic: string, relevance: Float64Array, options: QueryOptions, skipped?: SkippedEntry[], minRelevance = -1): { row: Row; signals: Signals; relevance: number; score: number }[] {
    const tags = options.tags ?? [];
    const budget = options.matchBudget;
    const meter: Meter | undefined = budget === undefined ? undefined : { ms: budget.ms, clock: budget.clock, start: budget.clock() };
    const out: { row: Row; signals: Signals; relevance: number; score: number }[] = [];
    for (const row of this.rows) {
      if (row.match === null && relevance[row.doc]! < minRelevance) continue;
      if (tags.length > 0 && !tags.every((t) => row.entry.tags?.includes(t) === true)) continue;
      const signals = this.signals(row, relevance[row.doc]!, topic, options.now, skipped, meter);
      const rel = signals.match ? 1 : signals.relevance;
      out.push({ row, signals, relevance: rel, score: rel * signals.value * signals.helpRatio * signals.decay });
    }
    return out;
  }

  private rank(topic: string, relevance: Relevance, options: QueryOptions): QueryResult {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const skipped: SkippedEntry[] = [];
    const failures: QueryHit[] = [];
    const patterns: QueryHit[] = [];
    for (const s of this.scored(topic, relevance.fused, options, skipped, threshold)) {
      const tier = tierOf(s.relevance, threshold);
      if (tier === undefined) continue;
      const hit: QueryHit = { kind: s.row.kind, name: s.row.entry.name, tier, relevance: s.relevance, score: s.score, signals: s.signals, entry: s.row.entry };
      (s.row.kind === 'failure' ? failures : patterns).push(hit);
    }
    return {
      topic,
      failures: top(failures, options.maxFailures ?? 5),
      patterns: top(patterns, options.maxPatterns ?? 3),
      skipped,
      scanned: this.rows.length,
    };
  }

  private explainFrom(topic: string, relevance: Relevance, options: QueryOptions & { name?: string }): Explanation[] {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const all = this.scored(topic, relevance.fused, options);
    const result = this.rank(topic, relevance, options);
    const rankOfHit = new Map<string, number>();
    result.failures.forEach((h, i) => rankOfHit.set(`failure:${h.name}`, i + 1));
    result.patterns.forEach((h, i) => rankOfHit.set(`pattern:${h.name}`, i + 1));
    const wanted = options.name === undefined ? all.filter((s) => rankOfHit.has(`${s.row.kind}:${s.row.entry.name}`)) : all.filter((s) => s.row.entry.name === options.name);
    return wanted.map((s) => {
      const rank = rankOfHit.get(`${s.row.kind}:${s.row.entry.name}`);
      const tier = tierOf(s.relevance, threshold);
      let excludedBecause: string | undefined;
      if (rank === undefined) {
        excludedBecause =
          tier === undefined
            ? `relevance ${s.relevance.toFixed(3)} is below the threshold ${threshold}`
            : `score ${s.score.toFixed(3)} is outside the top ${s.row.kind === 'failure' ? (options.maxFailures ?? 5) : (options.maxPatterns ?? 3)} ${s.row.kind}s`;
      }
      const doc = s.row.doc;
      return {
        kind: s.row.kind,
        name: s.row.entry.name,
        returned: rank !== undefined,
        rank,
        excludedBecause,
        tier,
        score: s.score,
        signals: s.signals,
        terms: this.lexical.explain(topic, doc).terms,
        retrieval: {
          bm25: { score: relevance.bm25[doc]!, rank: rankOf(relevance.bm25, doc) },
          semantic: relevance.semantic === undefined || relevance.source === undefined ? undefined : { score: relevance.semantic[doc]!, rank: rankOf(relevance.semantic, doc), source: relevance.source },
          fused: { score: relevance.fused[doc]!, rank: rankOf(relevance.fused, doc) },
        },
        semantic: relevance.source === 'builtin' ? this.semantic.explain(topic, doc) : undefined,
        factors: [
          { signal: 'relevance', value: s.relevance },
          { signal: 'value', value: s.signals.value },
          { signal: 'helpRatio', value: s.signals.helpRatio },
          { signal: 'decay', value: s.signals.decay },
        ],
      };
    });
  }
}

function top(hits: QueryHit[], n: number): QueryHit[] {
  hits.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return hits.slice(0, Math.max(0, n));
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new TypeError(`embedder vectors differ in length (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** One query over `data` (builds the index; keep a MemoryIndex to query the same data repeatedly). */
export function queryMemory(data: MemoryData, topic: string, options: QueryOptions): QueryResult {
  return new MemoryIndex(data).query(topic, options);
}

export function explainQuery(data: MemoryData, topic: string, options: QueryOptions & { name?: string }): Explanation[] {
  return new MemoryIndex(data).explain(topic, options);
}
