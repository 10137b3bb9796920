/**
 * The numbers behind ranking and pruning. FTL's docs and code disagreed on these formulas; this is
 * the one definition, used by query, explain, prune and cap eviction alike.
 *
 * age_days   = days since last_accessed, or created_at if never accessed (never negative)
 * value      = cost (failures) or saved (patterns)
 * help_ratio = (times_helped + 1) / (times_helped + times_failed + 2)   (0.5 without feedback)
 * decay      = 0.5 ^ (age_days / 30)                                      (half-life 30 days)
 * query score = relevance * log2(value + 1) * help_ratio * decay
 * importance  = log2(value + 1) * decay * (1 + 0.05 * sqrt(access_count)) * 2 * help_ratio
 *               * (1.1 if age_days < 7)
 * (2 * help_ratio is 1 without feedback, like FTL's "effectiveness", but smoothed: one bad report
 * does not halve an entry.)
 */
import type { Entry } from './types.js';

export const HALF_LIFE_DAYS = 30;
export const PRUNE_BELOW = 0.1;
const DAY_MS = 86_400_000;

export function entryValue(entry: Entry): number {
  return 'cost' in entry ? entry.cost : entry.saved;
}

export function ageDays(entry: Entry, now: number): number {
  const at = Date.parse(entry.last_accessed ?? entry.created_at);
  if (!Number.isFinite(at)) return 0;
  return Math.max(0, (now - at) / DAY_MS);
}

export function helpRatio(entry: Entry): number {
  return (entry.times_helped + 1) / (entry.times_helped + entry.times_failed + 2);
}

export function decay(days: number): number {
  return 0.5 ** (days / HALF_LIFE_DAYS);
}

export function valueFactor(entry: Entry): number {
  return Math.log2(Math.max(0, entryValue(entry)) + 1);
}

export function importance(entry: Entry, now: number): number {
  const days = ageDays(entry, now);
  return valueFactor(entry) * decay(days) * (1 + 0.05 * Math.sqrt(entry.access_count)) * 2 * helpRatio(entry) * (days < 7 ? 1.1 : 1);
}

export type Tier = 'critical' | 'productive' | 'exploration';
export const TIERS: readonly { tier: Tier; min: number }[] = [
  { tier: 'critical', min: 0.6 },
  { tier: 'productive', min: 0.4 },
  { tier: 'exploration', min: 0.25 },
];
export const DEFAULT_THRESHOLD = 0.25;

/** The tier of a relevance, or undefined below the lowest. */
export function tierOf(relevance: number, threshold = DEFAULT_THRESHOLD): Tier | undefined {
  if (relevance < threshold) return undefined;
  for (const t of TIERS) if (relevance >= t.min) return t.tier;
  return 'exploration';
}
