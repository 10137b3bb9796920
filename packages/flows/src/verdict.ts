/**
 * A REMEDIATION step's verdict, read from what the validation agent wrote: one line `Verdict: PASS`
 * or `Verdict: FAIL` (as a heading, a list item or bold text too), outside code fences. The verdict
 * comes from the file, not from the command line, so the agent driving the flow cannot overrule it.
 */
import { contentDigest } from './fresh.js';
import { linesOutsideFences } from './markdown.js';
import type { Verdict } from './types.js';

const VERDICT_LINE = /^ {0,3}(?:#{1,6}\s+|[-*+]\s+)?(?:\*\*|__)?verdict(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(pass|fail)\b/i;

/** The verdict `text` states, or why it states none. */
export function findVerdict(text: string): { verdict: Verdict } | { problem: string } {
  const found = new Set<Verdict>();
  for (const line of linesOutsideFences(text)) {
    const m = VERDICT_LINE.exec(line);
    if (m) found.add(m[1]!.toUpperCase() as Verdict);
  }
  if (found.size === 1) return { verdict: [...found][0]! };
  return { problem: found.size === 0 ? 'states no verdict: it needs a line "Verdict: PASS" or "Verdict: FAIL"' : 'states both PASS and FAIL: it needs one verdict' };
}

/**
 * The digest of a report without its verdict: every line but the verdict lines, right-trimmed, blank
 * lines left out. A report that failed and the same report with its verdict changed (or respaced)
 * have the same one, so a PASS that is only an edited FAIL is recognised: a PASS after a FAIL must
 * come from a new validation pass. A report rewritten in earnest differs in more than its verdict.
 */
export function reportDigest(text: string): string {
  const kept = text
    .split(/\r?\n/)
    .filter((line) => !VERDICT_LINE.test(line))
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
  return contentDigest(kept.join('\n'));
}
