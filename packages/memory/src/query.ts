/**
 * Retrieval: which memories matter for a topic, ranked, tiered, explained.
 *
 * relevance comes from BM25 (bm25.ts) by default, or from a user's embedder (cosine similarity,
 * negatives read as 0). A safe `match` regex that hits the topic makes relevance 1. Entries below
 * the threshold (default 0.25) are not returned; the rest are tiered by relevance (critical >= 0.6,
 * productive >= 0.4, exploration >= 0.25) and ranked by score (score.ts), best first, ties by name.
 */
import { Bm25Index, type TermContribution } from './bm25.js';
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
}

export interface Signals {
  /** Lexical or embedding relevance in [0, 1], before the match override. */
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
  /** BM25 per query term (absent with an embedder). */
  terms: TermContribution[] | undefined;
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
  private readonly lexical: Bm25Index;
  private readonly regexes = new Map<string, RegExp | string>();

  constructor(data: MemoryData) {
    const texts: string[] = [];
    for (const entry of data.failures) {
      this.rows.push(makeRow('failure', entry, texts.length));
      texts.push(entryText(entry));
    }
    for (const entry of data.patterns) {
      this.rows.push(makeRow('pattern', entry, texts.length));
      texts.push(entryText(entry));
    }
    this.lexical = new Bm25Index(texts);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Entries for a topic, with lexical relevance. */
  query(topic: string, options: QueryOptions): QueryResult {
    return this.rank(topic, this.lexical.scores(topic), options);
  }

  /** The same with relevance from your embedder. */
  async queryWith(embedder: Embedder, topic: string, options: QueryOptions): Promise<QueryResult> {
    return this.rank(topic, await this.embedRelevance(embedder, topic), options);
  }

  /** Every signal behind one entry's score for a topic (or behind each entry, if `name` is absent). */
  explain(topic: string, options: QueryOptions & { name?: string }): Explanation[] {
    return this.explainFrom(topic, this.lexical.scores(topic), options, true);
  }

  async explainWith(embedder: Embedder, topic: string, options: QueryOptions & { name?: string }): Promise<Explanation[]> {
    return this.explainFrom(topic, await this.embedRelevance(embedder, topic), options, false);
  }

  private async embedRelevance(embedder: Embedder, topic: string): Promise<Float64Array> {
    const vectors = await embedder.embed([topic, ...this.rows.map((r) => entryText(r.entry))]);
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

  private rank(topic: string, relevance: Float64Array, options: QueryOptions): QueryResult {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const skipped: SkippedEntry[] = [];
    const failures: QueryHit[] = [];
    const patterns: QueryHit[] = [];
    for (const s of this.scored(topic, relevance, options, skipped, threshold)) {
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

  private explainFrom(topic: string, relevance: Float64Array, options: QueryOptions & { name?: string }, lexical: boolean): Explanation[] {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const all = this.scored(topic, relevance, options);
    const result = this.rank(topic, relevance, options);
    const rankOf = new Map<string, number>();
    result.failures.forEach((h, i) => rankOf.set(`failure:${h.name}`, i + 1));
    result.patterns.forEach((h, i) => rankOf.set(`pattern:${h.name}`, i + 1));
    const wanted = options.name === undefined ? all.filter((s) => rankOf.has(`${s.row.kind}:${s.row.entry.name}`)) : all.filter((s) => s.row.entry.name === options.name);
    return wanted.map((s) => {
      const rank = rankOf.get(`${s.row.kind}:${s.row.entry.name}`);
      const tier = tierOf(s.relevance, threshold);
      let excludedBecause: string | undefined;
      if (rank === undefined) {
        excludedBecause =
          tier === undefined
            ? `relevance ${s.relevance.toFixed(3)} is below the threshold ${threshold}`
            : `score ${s.score.toFixed(3)} is outside the top ${s.row.kind === 'failure' ? (options.maxFailures ?? 5) : (options.maxPatterns ?? 3)} ${s.row.kind}s`;
      }
      return {
        kind: s.row.kind,
        name: s.row.entry.name,
        returned: rank !== undefined,
        rank,
        excludedBecause,
        tier,
        score: s.score,
        signals: s.signals,
        terms: lexical ? this.lexical.explain(topic, s.row.doc).terms : undefined,
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
