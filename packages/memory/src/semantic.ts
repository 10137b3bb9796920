/**
 * The built-in semantic signal: relevance by meaning without a model. It starts in microseconds and
 * needs no download, so it is on by default; a transformer embedder (embedder.ts) can replace it.
 *
 * Each query word is matched against an entry three ways, and the best one counts:
 *   - the same word (stemmed as tokenize.ts stems): credit 1;
 *   - a shared concept from the vocabulary table (concepts.ts: "database" meets "mongo", "token"
 *     meets "jwt", "port in use" meets "EADDRINUSE"): credit CONCEPT_CREDIT;
 *   - a word of the entry that looks like it (Dice similarity of their character 4-grams at least
 *     NGRAM_MIN_SIMILARITY), for inflections the stemmer misses ("configuration" and "configured"):
 *     credit NGRAM_CREDIT x that similarity. The n-grams index memory's vocabulary (each distinct
 *     word once), not every entry, so building the index stays about as cheap as BM25's.
 * relevance(q, d) = sum over query words w of weight(w) x credit(w, d) / sum over w of weight(w),
 * the share of the query's meaning an entry covers (the same reading as the BM25 relevance), with
 * weight(w) the idf of the word (or, for a word no entry contains, of its rarest concept; for a
 * word nothing matches at all, the largest idf in the memory, as BM25 does).
 */
import { CONCEPTS } from './concepts.js';
import { forEachWord, stem, termOf } from './tokenize.js';

export const CONCEPT_CREDIT = 0.8;
export const NGRAM_CREDIT = 0.5;
const GRAM = 4;
/** n-grams held by more than this share of memory's vocabulary say nothing and are not scanned. */
const GRAM_MAX_SHARE = 0.05;
export const NGRAM_MIN_SIMILARITY = 0.4;
const MAX_PHRASE = 4;
export const UNSEEN_SHARE = 0.3;

/** One query word's contribution to one entry's semantic relevance (for `explain`). */
export interface SemanticMatch {
  word: string;
  weight: number;
  /** How it matched: the word itself, a concept (`concept:database`), n-grams, or not at all. */
  via: string | undefined;
  credit: number;
}

interface WordFeatures {
  /** The written word, lowercased, and its stem (for phrases). */
  stem: string;
  term: string | undefined;
  concepts: string[];
  grams: string[];
  /** Index keys: `t:term`, `c:concept` (built once per distinct word). */
  keys: string[];
  /** The keys' feature ids in the index being built (memoised: most words repeat). */
  ids?: number[];
}

interface Table {
  words: Map<string, string[]>;
  phrases: Map<string, string[]>;
  /** Stems that start some phrase: the only words worth looking ahead from. */
  phraseStarts: Set<string>;
  /** Stems that end some phrase: the only words worth looking back from (indexing). */
  phraseEnds: Set<string>;
}

let conceptTable: Table | undefined;

/** The table, keyed by word (and its stem) and by phrase (stems joined by spaces). Built once. */
function table(): Table {
  if (conceptTable !== undefined) return conceptTable;
  const words = new Map<string, string[]>();
  const phrases = new Map<string, string[]>();
  const phraseStarts = new Set<string>();
  const phraseEnds = new Set<string>();
  const add = (map: Map<string, string[]>, key: string, concept: string): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [concept]);
    else if (!list.includes(concept)) list.push(concept);
  };
  for (const [concept, entries] of Object.entries(CONCEPTS)) {
    for (const entry of entries) {
      const parts: string[] = [];
      forEachWord(entry, (w) => parts.push(w.toLowerCase()));
      if (parts.length === 1) {
        add(words, parts[0]!, concept);
        add(words, stem(parts[0]!), concept);
      } else if (parts.length > 1 && parts.length <= MAX_PHRASE) {
        // Phrases are keyed by stems, so "line endings" meets "line ending".
        const stems = parts.map(stem);
        add(phrases, stems.join(' '), concept);
        phraseStarts.add(stems[0]!);
        phraseEnds.add(stems[stems.length - 1]!);
      }
    }
  }
  conceptTable = { words, phrases, phraseStarts, phraseEnds };
  return conceptTable;
}

/** Concepts of one lowercased word: as written, stemmed, or stemmed with its final e restored ("configur" -> "configure"). */
function wordConcepts(lower: string, s: string): string[] {
  const { words } = table();
  return words.get(lower) ?? words.get(s) ?? words.get(`${s}e`) ?? [];
}

function gramCount(term: string): number {
  return term.length <= GRAM ? 0 : new Set(gramsOf(term)).size;
}

function gramsOf(term: string): string[] {
  if (term.length <= GRAM) return [];
  const out = new Set<string>();
  for (let i = 0; i + GRAM <= term.length; i++) out.add(term.slice(i, i + GRAM));
  return [...out];
}

function featuresOf(lower: string): WordFeatures {
  const term = termOf(lower);
  const s = stem(lower);
  const concepts = wordConcepts(lower, s);
  const grams = term === undefined ? [] : gramsOf(term);
  return { stem: s, term, concepts, grams, keys: keysOf(term, concepts) };
}

function keysOf(term: string | undefined, concepts: readonly string[]): string[] {
  const keys = term === undefined ? [] : [`t:${term}`];
  for (const c of concepts) keys.push(`c:${c}`);
  return keys;
}

/**
 * The words of a text with their features; phrases from the table add their concepts to the
 * phrase's first word ("address already in use" gives "address" the port concept).
 */
function analyse(text: string, memo: Map<string, WordFeatures>): WordFeatures[] {
  const words: WordFeatures[] = [];
  // Keyed by the word as written: most words repeat, so this skips lowercasing them again.
  forEachWord(text, (w) => {
    let f = memo.get(w);
    if (f === undefined) memo.set(w, (f = featuresOf(w.length > 64 ? w.slice(0, 64).toLowerCase() : w.toLowerCase())));
    words.push(f);
  });
  const { phrases, phraseStarts } = table();
  const out: WordFeatures[] = [];
  for (let i = 0; i < words.length; i++) {
    const base = words[i]!;
    let concepts = base.concepts;
    if (phraseStarts.has(base.stem)) {
      let key = base.stem;
      for (let n = 2; n <= MAX_PHRASE && i + n - 1 < words.length; n++) {
        key += ` ${words[i + n - 1]!.stem}`;
        const hit = phrases.get(key);
        if (hit !== undefined) concepts = [...new Set([...concepts, ...hit])];
      }
    }
    // Stop words carry no meaning of their own, but may start a phrase ("in use").
    if (base.term === undefined && concepts.length === 0) continue;
    out.push(concepts === base.concepts ? base : { ...base, concepts, keys: keysOf(base.term, concepts) });
  }
  return out;
}

/** An inverted index of words, concepts and n-grams over a fixed list of texts. */
export class SemanticIndex {
  private readonly features = new Map<string, number>();
  private readonly postings: number[][] = [];
  private readonly memo = new Map<string, WordFeatures>();
  /** 4-gram -> the distinct terms of memory that contain it (n-grams index the vocabulary, not every entry). */
  private readonly gramTerms = new Map<string, string[]>();
  private maxIdf = 1;
  readonly size: number;

  constructor(docs: readonly string[]) {
    this.size = docs.length;
    const lastDoc: number[] = [];
    const idOf = (feature: string): number => {
      let id = this.features.get(feature);
      if (id === undefined) {
        id = this.postings.length;
        this.features.set(feature, id);
        this.postings.push([]);
        lastDoc.push(-1);
      }
      return id;
    };
    const addTerm = (w: WordFeatures): number[] => {
      if (w.term !== undefined && !this.features.has(`t:${w.term}`)) {
        for (const g of w.grams) {
          const list = this.gramTerms.get(g);
          if (list === undefined) this.gramTerms.set(g, [w.term]);
          else list.push(w.term);
        }
      }
      return w.keys.map(idOf);
    };
    // One streaming pass per entry, no per-entry arrays (this runs over every entry on the first
    // hybrid query of a CLI call): words post their memoised feature ids; a phrase is recognised at
    // its last word from the stems of the words before it, and posts its concepts.
    const { phrases, phraseEnds } = table();
    const recent: string[] = ['', '', ''];
    let d = 0;
    const post = (id: number): void => {
      if (lastDoc[id] !== d) {
        lastDoc[id] = d;
        this.postings[id]!.push(d);
      }
    };
    const onWord = (written: string): void => {
      let w = this.memo.get(written);
      if (w === undefined) this.memo.set(written, (w = featuresOf(written.length > 64 ? written.slice(0, 64).toLowerCase() : written.toLowerCase())));
      for (const id of (w.ids ??= addTerm(w))) post(id);
      if (phraseEnds.has(w.stem)) {
        let key = w.stem;
        for (let back = 0; back < MAX_PHRASE - 1 && recent[back] !== ''; back++) {
          key = `${recent[back]!} ${key}`;
          const hit = phrases.get(key);
          if (hit !== undefined) for (const c of hit) post(idOf(`c:${c}`));
        }
      }
      recent[2] = recent[1]!;
      recent[1] = recent[0]!;
      recent[0] = w.stem;
    };
    for (d = 0; d < docs.length; d++) {
      recent[0] = recent[1] = recent[2] = '';
      forEachWord(docs[d]!, onWord);
    }
    for (const list of this.postings) this.maxIdf = Math.max(this.maxIdf, this.idfOf(list.length));
  }

  private idfOf(df: number): number {
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  private df(feature: string): number {
    const id = this.features.get(feature);
    return id === undefined ? 0 : this.postings[id]!.length;
  }

  /**
   * A word's weight: its own idf if some entry has it, else its rarest known concept's. A word that
   * meets nothing in memory (no entry has it, a concept of it or its n-grams) cannot tell entries
   * apart; it still counts against every entry (one matched word of five is not a perfect match),
   * but at UNSEEN_SHARE of the largest idf, so that filler words of a paraphrase ("two", "want")
   * do not drown the words that carry its meaning.
   */
  private weightOf(w: WordFeatures): number {
    const df = w.term === undefined ? 0 : this.df(`t:${w.term}`);
    if (df > 0) return this.idfOf(df);
    let best = 0;
    for (const c of w.concepts) {
      const cdf = this.df(`c:${c}`);
      if (cdf > 0) best = Math.max(best, this.idfOf(cdf));
    }
    if (best > 0) return best;
    return this.similarTerms(w).length > 0 ? this.maxIdf : UNSEEN_SHARE * this.maxIdf;
  }

  /** Credit of one query word for every document (index = document). */
  private credits(w: WordFeatures): Float64Array {
    const credit = new Float64Array(this.size);
    for (const [term, similarity] of this.similarTerms(w)) {
      const id = this.features.get(`t:${term}`);
      if (id === undefined) continue;
      const c = NGRAM_CREDIT * similarity;
      for (const d of this.postings[id]!) if (credit[d]! < c) credit[d] = c;
    }
    for (const c of w.concepts) {
      const id = this.features.get(`c:${c}`);
      if (id === undefined) continue;
      for (const d of this.postings[id]!) if (credit[d]! < CONCEPT_CREDIT) credit[d] = CONCEPT_CREDIT;
    }
    if (w.term !== undefined) {
      const id = this.features.get(`t:${w.term}`);
      if (id !== undefined) for (const d of this.postings[id]!) credit[d] = 1;
    }
    return credit;
  }

  /**
   * Terms of memory that look like the word (Dice similarity of their 4-gram sets at least
   * NGRAM_MIN_SIMILARITY), not the word itself: "configuration" finds "configur", "authenticat"
   * finds "authentication". Grams held by more than GRAM_MAX_SHARE of the vocabulary are skipped.
   */
  private similarTerms(w: WordFeatures): [string, number][] {
    if (w.grams.length === 0) return [];
    const shared = new Map<string, number>();
    const limit = Math.max(8, this.features.size * GRAM_MAX_SHARE);
    for (const g of w.grams) {
      const terms = this.gramTerms.get(g);
      if (terms === undefined || terms.length > limit) continue;
      for (const t of terms) if (t !== w.term) shared.set(t, (shared.get(t) ?? 0) + 1);
    }
    const out: [string, number][] = [];
    for (const [t, n] of shared) {
      const similarity = (2 * n) / (w.grams.length + gramCount(t));
      if (similarity >= NGRAM_MIN_SIMILARITY) out.push([t, similarity]);
    }
    return out;
  }

  private queryWords(query: string): WordFeatures[] {
    // Distinct words only: repeating a word in a query does not make it matter more.
    const seen = new Set<string>();
    return analyse(query, this.memo).filter((w) => {
      const key = `${w.term ?? ''}|${w.concepts.join(',')}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Semantic relevance of every document to `query`, in [0, 1], in document order. */
  scores(query: string): Float64Array {
    const out = new Float64Array(this.size);
    const words = this.queryWords(query);
    let norm = 0;
    for (const w of words) {
      const weight = this.weightOf(w);
      norm += weight;
      const credit = this.credits(w);
      for (let d = 0; d < out.length; d++) if (credit[d]! > 0) out[d] = out[d]! + weight * credit[d]!;
    }
    if (norm > 0) for (let d = 0; d < out.length; d++) out[d] = Math.min(1, out[d]! / norm);
    return out;
  }

  /** How each query word matched one document (for `explain`). */
  explain(query: string, doc: number): SemanticMatch[] {
    return this.queryWords(query).map((w) => {
      const weight = this.weightOf(w);
      const credit = this.credits(w)[doc]!;
      let via: string | undefined;
      if (credit === 1) via = 'word';
      else if (credit === CONCEPT_CREDIT) via = `concept:${w.concepts.find((c) => this.postings[this.features.get(`c:${c}`) ?? -1]?.includes(doc) === true) ?? '?'}`;
      else if (credit > 0) via = `ngram:${this.similarTerms(w).sort((x, y) => y[1] - x[1]).find(([t]) => this.postings[this.features.get(`t:${t}`) ?? -1]?.includes(doc) === true)?.[0] ?? '?'}`;
      return { word: w.term ?? w.concepts.join('+'), weight, via, credit };
    });
  }
}
