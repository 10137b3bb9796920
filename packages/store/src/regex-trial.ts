/**
 * The second opinion of the regex guard: a bounded trial run. The structural bound (regex-guard.ts)
 * is cheap and sound but conservative: `Budget.*exhausted.*code_context.*partial` has three `.*`, so
 * its bound is 257^4, yet the literal words between them leave V8 almost nothing to backtrack over
 * and it runs in microseconds on any 256-character subject. Refusing such patterns made FTL memory
 * files lose real entries on import.
 *
 * A pattern the bound refuses is therefore run on adversarial subjects built from what it names
 * (runs of each character and of each pair of characters it matches, the characters spread out
 * between fillers, repetitions of its literal words with and without the last one) at growing lengths up to MATCH_SUBJECT_LIMIT, each followed
 * by a character that makes the match fail. Lengths grow in small steps, so exponential blow-up
 * (`(a+)+$`) is seen at 20-odd characters, long before one run could hang the process. A pattern is
 * accepted only if no run takes longer than SLOW_MS (the best of three tries, so a busy machine's
 * scheduler does not make a fast pattern look slow) and the whole trial stays within TOTAL_MS.
 *
 * A timer cannot interrupt a running regex, which is why the steps are small: the worst overshoot
 * is one step of growth past SLOW_MS (tens of milliseconds for `(a+)+$`), paid once per pattern.
 */
import { MATCH_SUBJECT_LIMIT } from './regex-limits.js';

/** A run on a short subject (exponential blow-up shows there) slower than this (ms, best of three) refuses the pattern. */
export const TRIAL_SLOW_MS = 2;
/**
 * The same on long subjects (up to MATCH_SUBJECT_LIMIT): a pattern like `redis.*Error.*\d+ x` costs
 * tens of milliseconds on 240 characters of "redisredis...", polynomial and bounded by the subject
 * limit; memory's query budget bounds the sum.
 */
export const TRIAL_SLOW_LONG_MS = 50;
/** The whole trial's budget (ms); a trial that cannot finish in it refuses the pattern. */
export const TRIAL_TOTAL_MS = 500;

/**
 * Two phases. Short subjects for every family, one character at a time up to 24 (a pattern whose cost
 * grows tenfold per character must not get four characters at once), then in steps of 4 up to 40
 * (exponential blow-up shows there, and short runs are cheap); then long subjects up to the limit for the single-character and word
 * families only, in steps of 8 (polynomial blow-up needs length, and a nested `{16}` makes a high
 * degree: coarser steps let one run overshoot far; pairs would cost most of the trial).
 */
const SHORT: readonly number[] = [...range(1, 24, 1), ...range(28, 40, 4)];
const LONG: readonly number[] = range(48, MATCH_SUBJECT_LIMIT, 8);
/** Characters that end a subject: most patterns cannot match them, so the engine must give up (and backtrack). */
const ENDINGS = ['\u0001', '\n', '!'];
const MAX_CHARS = 12;
/** A character no realistic pattern names: the gaps of the sparse families. */
const FILLER = '\u0002';
/** Pairs of the first this many characters (the pair families grow with its square). */
const MAX_PAIR_CHARS = 8;

export interface TrialResult {
  ok: boolean;
  /** Why it was refused (the slowest subject), when not ok. */
  reason?: string;
  /** Regex runs made. */
  runs: number;
  /** The slowest single run (ms, best of its tries). */
  slowestMs: number;
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n += step) out.push(n);
  return out;
}

/** Characters the pattern can match: its literals, a representative of each escape and class, and a few common ones. */
export function trialCharacters(pattern: string): string[] {
  const chars = new Set<string>();
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[i + 1] ?? '';
      const rep = ({ d: '0', w: 'a', s: ' ', D: 'a', W: '!', S: 'a', n: '\n', t: '\t' } as Record<string, string>)[e];
      const hex = e === 'u' ? /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 2)) : e === 'x' ? /^[0-9A-Fa-f]{2}/.exec(pattern.slice(i + 2)) : null;
      if (rep !== undefined) chars.add(rep);
      else if (hex) chars.add(String.fromCharCode(parseInt(hex[0], 16)));
      // Anything else is the letter itself, as V8 reads it without the u flag: `\u{1,}` is `u+`.
      else if (!/[bB0-9]/.test(e) && e !== '') chars.add(e);
      i++;
    } else if (c === '[') {
      const negated = pattern[i + 1] === '^';
      const first = pattern[i + (negated ? 2 : 1)];
      if (!negated && first !== undefined && first !== ']' && first !== '\\') chars.add(first);
    } else if (c === '.') chars.add('a');
    else if (!'()|*+?{}^$]'.includes(c)) chars.add(c);
  }
  for (const c of ['a', '0', ' ']) chars.add(c);
  return [...chars].slice(0, MAX_CHARS);
}

/** The literal words of a pattern (escapes and classes removed), in order. */
function trialWords(pattern: string): string[] {
  return pattern
    .replace(/\\./g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .split(/[^A-Za-z0-9_]+/)
    .filter((w) => w.length >= 2)
    .slice(0, 16);
}

/** Subject families (the unit a subject repeats): `short` ones are tried on short subjects only. */
function units(pattern: string): { unit: string; short: boolean }[] {
  const chars = trialCharacters(pattern);
  const out = new Set<string>(chars);
  const pairs = new Set<string>();
  const few = chars.slice(0, MAX_PAIR_CHARS);
  for (const x of few) for (const y of few) if (x !== y) pairs.add(x + y);
  // Sparse runs: a character the pattern needs, few and far between (`(.*a){12}` on 11 "a"s backtracks
  // over every way to place them; dense runs match at once).
  for (const x of few) out.add(x + FILLER.repeat(7));
  const words = trialWords(pattern);
  if (words.length > 0) {
    out.add(`${words.join(' ')} `);
    out.add(words.join(''));
    if (words.length > 1) out.add(`${words.slice(0, -1).join(' ')} `);
    for (const w of words) out.add(w);
  }
  return [...[...out].map((unit) => ({ unit, short: false })), ...[...pairs].filter((u) => !out.has(u)).map((unit) => ({ unit, short: true }))];
}

/**
 * Run `regex` on adversarial subjects of growing length. `clock` (ms) is injectable for tests;
 * the default is the high-resolution timer.
 */
export function trialRun(regex: RegExp, pattern: string, clock: () => number = () => performance.now()): TrialResult {
  const started = clock();
  let runs = 0;
  let slowestMs = 0;
  const families = units(pattern);
  const timeOne = (subject: string, slow: number): number => {
    let best = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      const t0 = clock();
      regex.lastIndex = 0;
      regex.test(subject);
      runs++;
      best = Math.min(best, clock() - t0);
      // Fast, or so slow that no pause of the machine (GC, scheduler) explains it: no need to try again.
      if (best <= slow || best > 200) break;
    }
    return best;
  };
  for (const length of [...SHORT, ...LONG]) {
    const long = length > SHORT[SHORT.length - 1]!;
    for (const { unit, short } of families) {
      if (long && short) continue;
      for (const end of ENDINGS) {
        const body = unit.repeat(Math.ceil(length / unit.length)).slice(0, length - 1);
        const subject = body + end;
        const slow = long ? TRIAL_SLOW_LONG_MS : TRIAL_SLOW_MS;
        const ms = timeOne(subject, slow);
        slowestMs = Math.max(slowestMs, ms);
        if (ms > slow) {
          const sample = subject.length > 24 ? `${JSON.stringify(subject.slice(0, 16))}... (${subject.length} characters)` : JSON.stringify(subject);
          return { ok: false, reason: `a trial run took ${ms.toFixed(1)} ms on ${sample}; it backtracks too much (over ${slow} ms on a ${length}-character subject)`, runs, slowestMs };
        }
        if (clock() - started > TRIAL_TOTAL_MS) return { ok: false, reason: `its trial runs did not finish within ${TRIAL_TOTAL_MS} ms`, runs, slowestMs };
      }
    }
  }
  return { ok: true, runs, slowestMs };
}
