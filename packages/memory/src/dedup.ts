/**
 * Near-duplicate detection. FTL gated its semantic check behind an exact-match Bloom filter, so a
 * trigger differing by one character skipped the check and was stored twice. Here every new
 * trigger is compared with every stored trigger of the same kind (at most 500, so linear is fine):
 * a near duplicate has the same specific words (token Jaccard >= 0.8, after stemming) AND nearly
 * the same characters (trigram Dice >= 0.8). Both must hold: "No module named numpy" and
 * "No module named requests" share most characters but not their words.
 */
import { normalizeText, tokenize } from './tokenize.js';

export const DUPLICATE_JACCARD = 0.8;
export const DUPLICATE_DICE = 0.8;

export function trigrams(text: string): Set<string> {
  const s = ` ${normalizeText(text)} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

export function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  return (2 * common) / (a.size + b.size);
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  return common / (a.size + b.size - common);
}

/** Similarity of two triggers in [0, 1]: the smaller of the two measures (both must be high). */
export function triggerSimilarity(a: string, b: string): number {
  if (normalizeText(a) === normalizeText(b)) return 1;
  return Math.min(jaccard(new Set(tokenize(a)), new Set(tokenize(b))), dice(trigrams(a), trigrams(b)));
}

/**
 * How related two failure triggers are, when something else already says they may be one failure
 * (the retry that got past a block reports a memory entry helped): the smaller of token Jaccard and
 * trigram Dice, judged against RELATED_SIMILARITY, well below the near-duplicate bar.
 */
export const RELATED_SIMILARITY = 0.35;

/** Whether two pattern insights teach the same thing (token Jaccard and trigram Dice both >= 0.6). */
export const SAME_INSIGHT = 0.6;

/** The index of the most similar trigger at or above both thresholds, if any. */
export function findNearDuplicate<T extends { trigger: string }>(trigger: string, existing: readonly T[], accept?: (entry: T) => boolean): { index: number; similarity: number } | undefined {
  const norm = normalizeText(trigger);
  const tokens = new Set(tokenize(trigger));
  const grams = trigrams(trigger);
  let best: { index: number; similarity: number } | undefined;
  for (let i = 0; i < existing.length; i++) {
    if (accept !== undefined && !accept(existing[i]!)) continue;
    const other = existing[i]!.trigger;
    let sim: number;
    if (normalizeText(other) === norm) sim = 1;
    else {
      const j = jaccard(tokens, new Set(tokenize(other)));
      if (j < DUPLICATE_JACCARD) continue;
      const d = dice(grams, trigrams(other));
      if (d < DUPLICATE_DICE) continue;
      sim = Math.min(j, d);
    }
    if (best === undefined || sim > best.similarity) best = { index: i, similarity: sim };
  }
  return best;
}
