/**
 * Fusing BM25 with the semantic signal.
 *
 * Reciprocal rank fusion (score = sum of 1 / (k + rank)) throws away how relevant an entry is: the
 * best of a hundred unrelated memories gets the same fused score as a perfect hit, so RRF cannot feed
 * the relevance threshold and tiers (critical >= 0.6 ...) that decide what an agent is shown. Both of
 * our signals are already relevances in [0, 1] (the share of the query an entry covers), so they are
 * fused as a noisy OR: fused = 1 - (1 - bm25) x (1 - SEMANTIC_WEIGHT x semantic). It equals BM25 when
 * the semantic signal sees nothing (no loss on exact error strings), grows with either, is highest
 * when both agree, and stays in [0, 1]. The semantic signal is discounted a little because a
 * paraphrase match is weaker evidence than the same words.
 */
export const SEMANTIC_WEIGHT = 0.9;

export function fuse(bm25: Float64Array, semantic: Float64Array): Float64Array {
  const out = new Float64Array(bm25.length);
  for (let d = 0; d < out.length; d++) out[d] = 1 - (1 - bm25[d]!) * (1 - SEMANTIC_WEIGHT * semantic[d]!);
  return out;
}

/** 1-based rank of `doc` by `scores` (ties share the better rank), or undefined when it scores 0. */
export function rankOf(scores: Float64Array, doc: number): number | undefined {
  const mine = scores[doc]!;
  if (!(mine > 0)) return undefined;
  let better = 0;
  for (let d = 0; d < scores.length; d++) if (scores[d]! > mine) better++;
  return better + 1;
}
