/**
 * BM25 over a fixed list of documents, with relevance normalised to [0, 1] so that tiers
 * (critical >= 0.6 ...) mean the same thing whatever the corpus size.
 *
 * relevance(q, d) = min(1, sum over distinct query terms t in d of idf(t) * tf'(t, d)
 *                          / sum over distinct query terms t of w(t))
 * with tf'(t, d) = tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl)) (1 for one occurrence in a
 * document of average length), idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)), and w(t) = idf(t) for
 * known terms. A query word no entry contains gets the weight of the rarest known word: it counts
 * against every entry, but not more than a rare word would (a raw idf for df = 0 would let one typo
 * sink every match in a small memory).
 */
import { forEachWord, termOf, tokenize } from './tokenize.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface TermContribution {
  term: string;
  /** Occurrences in the document. */
  tf: number;
  idf: number;
  /** This term's share of the relevance (the parts sum to the unclamped relevance). */
  contribution: number;
}

export class Bm25Index {
  private readonly terms = new Map<string, number>();
  /** Per term id: document indexes and term frequencies, in document order. */
  private readonly postingDocs: number[][] = [];
  private readonly postingTf: number[][] = [];
  private readonly docLength: Float64Array;
  private readonly avgLength: number;
  private maxIdf = 0;
  readonly size: number;

  constructor(docs: readonly string[]) {
    this.size = docs.length;
    this.docLength = new Float64Array(docs.length);
    let total = 0;
    // Written word -> term id (-1: not indexed). Most words repeat, so this skips lowercasing and
    // stemming for all but their first occurrence. (A custom table over string ranges, avoiding the
    // slice, measured no faster than this Map.)
    const seen = new Map<string, number>();
    // Per term id: the last document it was counted in; postings arrive in document order, so a repeat
    // in the same document increments the last posting instead of needing a per-document map.
    const lastDoc: number[] = [];
    let d = 0;
    let length = 0;
    const count = (word: string): void => {
      let id = seen.get(word);
      if (id === undefined) {
        const term = termOf(word);
        if (term === undefined) id = -1;
        else {
          id = this.terms.get(term);
          if (id === undefined) {
            id = this.postingDocs.length;
            this.terms.set(term, id);
            this.postingDocs.push([]);
            this.postingTf.push([]);
            lastDoc.push(-1);
          }
        }
        seen.set(word, id);
      }
      if (id < 0) return;
      length++;
      if (lastDoc[id] === d) {
        const tfs = this.postingTf[id]!;
        tfs[tfs.length - 1]!++;
      } else {
        lastDoc[id] = d;
        this.postingDocs[id]!.push(d);
        this.postingTf[id]!.push(1);
      }
    };
    for (d = 0; d < docs.length; d++) {
      length = 0;
      forEachWord(docs[d]!, count);
      this.docLength[d] = length;
      total += length;
    }
    this.avgLength = docs.length === 0 ? 1 : Math.max(1, total / docs.length);
    for (const list of this.postingDocs) this.maxIdf = Math.max(this.maxIdf, this.idfOf(list.length));
    if (this.maxIdf === 0) this.maxIdf = 1;
  }

  private idfOf(df: number): number {
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Distinct query terms, in first-occurrence order. */
  queryTerms(query: string): string[] {
    return [...new Set(tokenize(query))];
  }

  /** Relevance of every document to `query`, in document order. */
  scores(query: string): Float64Array {
    const out = new Float64Array(this.size);
    const terms = this.queryTerms(query);
    if (terms.length === 0) return out;
    let norm = 0;
    for (const term of terms) {
      const id = this.terms.get(term);
      if (id === undefined) {
        norm += this.maxIdf;
        continue;
      }
      const docs = this.postingDocs[id]!;
      const tfs = this.postingTf[id]!;
      const idf = this.idfOf(docs.length);
      norm += idf;
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        out[d] = out[d]! + idf * this.tfNorm(tfs[i]!, d);
      }
    }
    for (let d = 0; d < out.length; d++) out[d] = Math.min(1, out[d]! / norm);
    return out;
  }

  /** Per-term breakdown of one document's relevance (for `explain`). */
  explain(query: string, doc: number): { terms: TermContribution[]; relevance: number } {
    const terms = this.queryTerms(query);
    const parts: TermContribution[] = [];
    let norm = 0;
    let sum = 0;
    for (const term of terms) {
      const id = this.terms.get(term);
      const idf = id === undefined ? this.maxIdf : this.idfOf(this.postingDocs[id]!.length);
      norm += idf;
      let tf = 0;
      if (id !== undefined) {
        const at = this.postingDocs[id]!.indexOf(doc);
        if (at >= 0) tf = this.postingTf[id]![at]!;
      }
      const raw = tf === 0 ? 0 : idf * this.tfNorm(tf, doc);
      sum += raw;
      parts.push({ term, tf, idf, contribution: raw });
    }
    for (const p of parts) p.contribution = norm === 0 ? 0 : p.contribution / norm;
    return { terms: parts, relevance: norm === 0 ? 0 : Math.min(1, sum / norm) };
  }

  private tfNorm(tf: number, doc: number): number {
    return (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * this.docLength[doc]!) / this.avgLength));
  }
}

