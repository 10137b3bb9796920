/**
 * A `match` regex from an error message (the observer's, as FTL's observer wrote them by hand):
 * the message escaped, with its volatile parts generalised so the same failure matches next time
 * on another machine, port or commit:
 *   - paths (`/home/ci/app/src/x.ts`, `C:\\build\\x.js`, `./src/a.ts`) -> `\S{1,200}`
 *   - hex ids and hashes (6+ hex digits with a digit, `0x...`) -> `[0-9a-fA-F]{6,64}` / `0x[0-9a-fA-F]{1,16}`
 *   - addresses and versions (`127.0.0.1:3000`, `20.19.1`) -> `[\d.:]{1,40}`; other numbers (ports,
 *     line numbers, durations) -> `\d{1,12}`
 *   - quoted names ('requests', "lodash") -> `['"][^'"]{1,100}['"]`
 * Every quantifier is bounded, the result is checked by the regex guard (checkRegex) like any user
 * pattern, and a message that keeps too little literal text (under 8 characters) gets no regex:
 * `\d{1,12}: \S{1,200}` would match anything.
 */
import { checkRegex, MATCH_MAX_LENGTH } from '@ratchet/store';

/** The longest message prefix turned into a regex: the head of an error is its stable part. */
const SOURCE_LIMIT = 120;
const MIN_LITERAL = 8;

type Piece = { literal: string } | { pattern: string };

const RULES: { re: RegExp; pattern: string }[] = [
  { re: /(?:[A-Za-z]:\\|\.{0,2}\/)[^\s'"`()<>:]+(?:[\\/][^\s'"`()<>:]+)*/y, pattern: '\\S{1,200}' },
  { re: /0x[0-9a-fA-F]+/y, pattern: '0x[0-9a-fA-F]{1,16}' },
  { re: /(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{6,64}(?![0-9a-zA-Z])/y, pattern: '[0-9a-fA-F]{6,64}' },
  { re: /\d+(?:[.:]\d+)+/y, pattern: '[\\d.:]{1,40}' },
  { re: /\d+/y, pattern: '\\d{1,12}' },
  { re: /(['"])[^'"\n]{1,100}\1/y, pattern: `['"][^'"]{1,100}['"]` },
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The generalised regex source for `message`, or undefined when it would be unsafe or match too much. */
export function deriveMatch(message: string): string | undefined {
  const text = message.split(/\r?\n/)[0]!.trim().slice(0, SOURCE_LIMIT);
  const pieces: Piece[] = [];
  let literal = '';
  let i = 0;
  outer: while (i < text.length) {
    // A volatile part starts a token: not inside a word ("utf8", "v8" and "base64" stay literal).
    const atBoundary = i === 0 || !/[A-Za-z0-9_]/.test(text[i - 1]!);
    if (atBoundary) {
      for (const rule of RULES) {
        rule.re.lastIndex = i;
        const m = rule.re.exec(text);
        if (m !== null && m[0].length > 0) {
          if (literal !== '') pieces.push({ literal });
          literal = '';
          pieces.push({ pattern: rule.pattern });
          i += m[0].length;
          continue outer;
        }
      }
    }
    literal += text[i];
    i++;
  }
  if (literal !== '') pieces.push({ literal });
  const literalLength = pieces.reduce((n, p) => n + ('literal' in p ? p.literal.replace(/\s+/g, '').length : 0), 0);
  if (literalLength < MIN_LITERAL) return undefined;
  // Runs of whitespace become one space: a quantifier per gap would multiply the ways a topic can be
  // split past what the guard allows.
  const source = pieces.map((p) => ('literal' in p ? escape(p.literal.replace(/\s+/g, ' ')) : p.pattern)).join('');
  if (source.length > MATCH_MAX_LENGTH) return undefined;
  return checkRegex(source).safe ? source : undefined;
}
