/**
 * find-similar, FTL's formula: 0.6 x objective cosine + 0.3 x Jaccard of delta files + 0.1 x
 * task-count similarity (smaller / larger); candidates must have the same framework (both null
 * counts as the same); results at or above the threshold (0.6 by default), best first.
 */

export interface SimilarityInput {
  objective: string;
  framework: string | null;
  deltaFiles: readonly string[];
  taskCount: number;
}

export interface SimilarityScore {
  score: number;
  objective: number;
  delta: number;
  taskCount: number;
}

export const SIMILARITY_THRESHOLD = 0.6;

export function tokens(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) tf.set(m[0], (tf.get(m[0]) ?? 0) + 1);
  return tf;
}

export function cosine(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of ta) {
    na += v * v;
    dot += v * (tb.get(k) ?? 0);
  }
  for (const v of tb.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size === 0 && sb.size === 0) return 0;
  let both = 0;
  for (const x of sa) if (sb.has(x)) both++;
  return both / (sa.size + sb.size - both);
}

/** undefined when the frameworks differ (FTL never compares across frameworks). */
export function similarity(a: SimilarityInput, b: SimilarityInput): SimilarityScore | undefined {
  if ((a.framework ?? null) !== (b.framework ?? null)) return undefined;
  const objective = cosine(a.objective, b.objective);
  const delta = jaccard(a.deltaFiles, b.deltaFiles);
  const max = Math.max(a.taskCount, b.taskCount);
  const taskCount = max === 0 ? 1 : Math.min(a.taskCount, b.taskCount) / max;
  const score = 0.6 * objective + 0.3 * delta + 0.1 * taskCount;
  return { score: round(score), objective: round(objective), delta: round(delta), taskCount: round(taskCount) };
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;
