/**
 * Regular expressions that are user data Ratchet runs: memory's `match` patterns (tested against a
 * query's topic) and plan-lint dialects' `argsMatch` (tested against a plan command's arguments).
 * JavaScript regexes backtrack, so a pattern like `(a+)+$` can take exponential time on a
 * 30-character subject and hang the agent's shell. Policy: REFUSED, not bounded by a timer (a timer
 * cannot interrupt a running regex in-process).
 *
 * A pattern is accepted if an upper bound on the ways it can split its subject stays at most
 * MAX_SPLITS (257^2: two unbounded quantifiers), or, when the bound is exceeded, if a bounded trial
 * run on adversarial subjects shows it fast (regex-trial.ts: the bound alone refused real FTL
 * patterns like `Budget.*exhausted.*code_context.*partial` that run in microseconds). The bound, with S = MATCH_SUBJECT_LIMIT (256, the
 * most characters a pattern ever sees):
 *   a quantified atom `x{m,n}`: min(n, S) - m + 1 (so `*` counts S + 1);
 *   a sequence: the product of its items; an alternation: the sum of its branches;
 *   a group with inner bound g quantified `{m,n}`: (min(n, S) - m + 1) * g^min(n, S).
 * So `.*foo.*bar` (66,049) and `(\d{1,3}\.){3}` (27) pass; `(a+)+`, `(a|ab)*`, `(.*a){3}`,
 * `\w*\w*\w*x` and `((a|ab){10}){10}` exceed the bound. It is conservative: a repeated alternation
 * like `(foo|bar)+` exceeds it too; the trial run then decides.
 * The bound is per start position and not every split costs the same, so an accepted pattern is
 * polynomial, not free: the worst found (`(?:a|a){16}x`, many small choices that the subject's length
 * does not limit) takes most of a second on 256 "a"s, and longer subjects cost polynomially more.
 * Memory bounds a query's total with a time budget (its query.ts, `matchBudget`).
 * Also refused: backreferences and lookarounds (not covered by the bound), patterns over 200
 * characters, and patterns that do not compile. Memory checks a pattern when it is added and again
 * when a query meets it (memory.json may be edited by hand): an unsafe one is skipped and reported,
 * never run, and the topic is cut to S characters before matching. A dialect is refused as a whole.
 *
 * The scanner follows what V8 compiles without the `u` flag (Annex B): `[]` is an empty class and
 * `[^]` any character (their `]` closes them); `\u{...}`, `\p{...}` and a `\x` or `\u` without its
 * hex digits are the letter itself followed by a quantifier, so `(\u{1,})*` is `(u+)*` and refused.
 * A pattern compiled with the `u` flag (dialects) reads `\u{...}` and `\p{...}` as one character, which
 * the scanner never counts lower.
 */

import { MATCH_MAX_LENGTH, MATCH_SUBJECT_LIMIT } from './regex-limits.js';
import { trialRun } from './regex-trial.js';

export { MATCH_MAX_LENGTH, MATCH_SUBJECT_LIMIT };
export { TRIAL_SLOW_MS, TRIAL_SLOW_LONG_MS, TRIAL_TOTAL_MS, trialRun, type TrialResult } from './regex-trial.js';
export const MAX_SPLITS = (MATCH_SUBJECT_LIMIT + 1) ** 2;
const BOUND_REFUSAL = 'it could backtrack catastrophically';

/** `checkedBy`: `bound` when the structural bound proves it, `trial` when a bounded trial run did. */
export type RegexVerdict = { safe: true; regex: RegExp; checkedBy: 'bound' | 'trial' } | { safe: false; reason: string };

export interface CheckRegexOptions {
  /**
   * Run a pattern the structural bound refuses on adversarial subjects, and accept it if every run
   * is fast (regex-trial.ts). Default true; false gives the bound's verdict alone.
   */
  trial?: boolean;
}

interface Frame {
  /** Bounds of the alternatives closed so far. */
  branches: number;
  /** Bound of the sequence being read. */
  current: number;
}

export function checkRegex(pattern: string, options: CheckRegexOptions = {}): RegexVerdict {
  if (typeof pattern !== 'string' || pattern.length === 0) return { safe: false, reason: 'the pattern is empty' };
  if (pattern.length > MATCH_MAX_LENGTH) return { safe: false, reason: `the pattern is longer than ${MATCH_MAX_LENGTH} characters` };
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'i');
  } catch (err) {
    return { safe: false, reason: `not a valid regular expression: ${err instanceof Error ? err.message : String(err)}` };
  }
  const problem = findProblem(pattern);
  if (problem === undefined) return { safe: true, regex, checkedBy: 'bound' };
  // Only the bound's own refusal gets a second opinion (backreferences and lookarounds are not
  // tried), and only without nested repetition: `(a+)+` or `(x{16}){16}` can cost a high power of the
  // subject's length, which can jump from fast to hours between two trial lengths. Quantifiers in
  // sequence or over alternatives (`.*a.*b`, `(foo|bar)+`) grow smoothly enough to be measured.
  if (options.trial === false || !problem.startsWith(BOUND_REFUSAL)) return { safe: false, reason: problem };
  if (hasNestedRepetition(pattern)) return { safe: false, reason: `${problem} (a repeated group contains a repetition)` };
  const trial = trialRun(regex, pattern);
  return trial.ok ? { safe: true, regex, checkedBy: 'trial' } : { safe: false, reason: `${problem}, and ${trial.reason!}` };
}


/** Upper bound on the ways `p` can split a subject of MATCH_SUBJECT_LIMIT characters (Infinity past 1e300). */
export function splitBound(p: string): number {
  const stack: Frame[] = [{ branches: 0, current: 1 }];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    const top = stack[stack.length - 1]!;
    if (c === '(') {
      stack.push({ branches: 0, current: 1 });
      i += p.startsWith('(?:', i) ? 3 : p.startsWith('(?<', i) && !p.startsWith('(?<=', i) && !p.startsWith('(?<!', i) ? p.indexOf('>', i) + 1 : p.startsWith('(?', i) ? 3 : 1;
      continue;
    }
    if (c === '|') {
      top.branches += top.current;
      top.current = 1;
      i += 1;
      continue;
    }
    let item = 1;
    if (c === ')') {
      const closed = stack.length > 1 ? stack.pop()! : top;
      const inner = closed.branches + closed.current;
      i += 1;
      const q = readQuantifier(p, i);
      if (q !== undefined) {
        const max = Math.min(q.max, MATCH_SUBJECT_LIMIT);
        item = (max - q.min + 1) * inner ** max;
        i = q.end;
      } else item = inner;
    } else {
      if (c === '\\') i = skipEscape(p, i);
      else if (c === '[') i = skipClass(p, i);
      else i += 1;
      const q = readQuantifier(p, i);
      if (q !== undefined) {
        item = Math.min(q.max, MATCH_SUBJECT_LIMIT) - q.min + 1;
        i = q.end;
      }
    }
    const frame = stack[stack.length - 1]!;
    frame.current *= Math.max(1, item);
  }
  const root = stack[0]!;
  return root.branches + root.current;
}

/** True when a group quantified to repeat (max > 1) contains a quantifier that repeats. */
export function hasNestedRepetition(p: string): boolean {
  // Per open group: whether something inside it repeats.
  const stack: boolean[] = [false];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '(') {
      stack.push(false);
      i += 1;
      continue;
    }
    if (c === ')') {
      const inner = stack.length > 1 ? stack.pop()! : false;
      i += 1;
      const q = readQuantifier(p, i);
      const repeats = q !== undefined && q.max > 1;
      if (repeats && inner) return true;
      if (q !== undefined) i = q.end;
      if (repeats || inner) stack[stack.length - 1] = true;
      continue;
    }
    if (c === '\\') i = skipEscape(p, i);
    else if (c === '[') i = skipClass(p, i);
    else i += 1;
    const q = readQuantifier(p, i);
    if (q !== undefined) {
      if (q.max > 1) stack[stack.length - 1] = true;
      i = q.end;
    }
  }
  return false;
}

function findProblem(p: string): string | undefined {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      const next = p[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not allowed';
      i++;
    } else if (p[i] === '[') i = skipClass(p, i) - 1;
    else if (p.startsWith('(?=', i) || p.startsWith('(?!', i) || p.startsWith('(?<=', i) || p.startsWith('(?<!', i)) return 'lookaround assertions are not allowed';
  }
  const bound = splitBound(p);
  if (bound > MAX_SPLITS) {
    const why = `up to ${bound === Infinity ? 'more than 1e300' : bound.toExponential(1)} ways to split a ${MATCH_SUBJECT_LIMIT}-character subject; the limit is ${MAX_SPLITS}`;
    return `${BOUND_REFUSAL} (${why}): avoid nested or repeated quantifiers and repeated alternations`;
  }
  return undefined;
}

function readQuantifier(p: string, i: number): { end: number; min: number; max: number } | undefined {
  const c = p[i];
  let end: number;
  let min: number;
  let max: number;
  if (c === '*' || c === '+') {
    end = i + 1;
    min = c === '*' ? 0 : 1;
    max = Infinity;
  } else if (c === '?') {
    end = i + 1;
    min = 0;
    max = 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
    if (m === null) return undefined;
    end = i + m[0].length;
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
  } else return undefined;
  if (p[end] === '?') end += 1; // lazy: same backtracking cost
  return { end, min: Math.min(min, MATCH_SUBJECT_LIMIT), max };
}

/** The index after the class opening at `i`. Without the `u` flag V8 closes a class at its first unescaped `]`: `[]` is empty, `[^]` is any character. */
function skipClass(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  while (j < p.length && p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
  return j + 1;
}

const HEX = /^[0-9A-Fa-f]+$/;

/**
 * The index after the escape at `i`, as V8 reads it without the `u` flag: `\uXXXX`, `\xXX` and `\cX`
 * are one character; anything else (`\u{..}`, `\p{..}`, a `\x` without two hex digits) is the escaped
 * letter alone, and what follows is read on its own (a `{1,}` after it is a quantifier).
 */
function skipEscape(p: string, i: number): number {
  const kind = p[i + 1];
  if (kind === 'u' && HEX.test(p.slice(i + 2, i + 6)) && p.slice(i + 2, i + 6).length === 4) return i + 6;
  if (kind === 'x' && HEX.test(p.slice(i + 2, i + 4)) && p.slice(i + 2, i + 4).length === 2) return i + 4;
  if (kind === 'c' && /^[A-Za-z]$/.test(p[i + 2] ?? '')) return i + 3;
  return i + 2;
}
