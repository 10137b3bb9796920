/**
 * A small glob matcher (no dependency): `*` (within a segment), `**` (any number of segments),
 * `?` (one character), `[abc]`, `[a-z]`, `[!a]` / `[^a]`. Paths use forward slashes.
 *
 * `compileGlob` matches by simulating the glob as a finite automaton over the path, one character at
 * a time: time is (path length) x (glob length) whatever the glob, where the regular expression of
 * the same glob backtracks exponentially on `**\/**\/**\/...x` or `*a*a*a...b` (a plan, a lesson or a
 * hook config naming such a glob hung lint for minutes). `globToRegExp` stays for callers that need a
 * RegExp; it must only be given trusted globs.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '^';
  for (const t of tokenize(glob)) re += t.kind === LIT ? t.text.replace(/[.+^${}()|[\\/\]*?]/g, '\\$&') : SOURCE[t.kind] ?? t.text;
  return new RegExp(`${re}$`);
}

/** A compiled glob: `test(path)` in time linear in the path, never backtracking. */
export interface GlobMatcher {
  test(path: string): boolean;
}

export function compileGlob(glob: string): GlobMatcher {
  const tokens = collapse(tokenize(glob));
  const n = tokens.length;
  const kinds = tokens.map((t) => t.kind);
  const chars = tokens.map((t) => (t.kind === LIT ? t.text.charCodeAt(0) : t.kind === CLASS ? new RegExp(`^${t.text}$`) : 0));
  // State 2t: before token t (for `**\/`, at the start of a segment); 2t+1: inside a `**\/` segment;
  // 2n: the whole glob matched. Only the live states are visited (a sparse set, stamped per step).
  const size = 2 * n + 1;
  const stamp = new Uint32Array(size);
  let round = 0;
  return {
    test(path: string): boolean {
      let cur: number[] = [];
      let next: number[] = [];
      round++;
      enter(cur, 0);
      for (let i = 0; i < path.length && cur.length > 0; i++) {
        const c = path.charCodeAt(i);
        round++;
        next.length = 0;
        for (const s of cur) {
          if (s === 2 * n) continue;
          const t = s >> 1;
          const k = kinds[t];
          let to = -1;
          if (k === LIT) to = c === chars[t] ? 2 * t + 2 : -1;
          else if (k === ANY) to = c !== SLASH ? 2 * t + 2 : -1;
          else if (k === CLASS) to = (chars[t] as RegExp).test(path[i]!) ? 2 * t + 2 : -1;
          else if (k === STAR) to = c !== SLASH ? 2 * t : -1;
          else if (k === GLOBSTAR) to = c === SLASH ? 2 * t : 2 * t + 1;
          else if (k === REST) to = isLineTerminator(c) ? -1 : 2 * t;
          if (to >= 0) enter(next, to);
        }
        [cur, next] = [next, cur];
      }
      return cur.includes(2 * n);
    },
  };
  /** Add state `s` and what is reachable from it without reading: past a `*`, a `**\/` (at a segment start) or a trailing `**`. */
  function enter(states: number[], s: number): void {
    for (;;) {
      if (stamp[s] === round) return;
      stamp[s] = round;
      states.push(s);
      const k = kinds[s >> 1];
      if ((s & 1) === 1 || s === 2 * n || (k !== STAR && k !== GLOBSTAR && k !== REST)) return;
      s += 2;
    }
  }
}

/** `**\/**\/` is `**\/`, `**` is `*`: merged so a long run of them is one state, not thousands. */
function collapse(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.kind === t.kind && (t.kind === STAR || t.kind === GLOBSTAR)) continue;
    out.push(t);
  }
  return out;
}

/** The paths in `files` that `glob` matches, sorted (deterministic expansion). */
export function matchGlob(glob: string, files: Iterable<string>): string[] {
  const matcher = compileGlob(glob);
  const out: string[] = [];
  for (const f of files) if (matcher.test(f)) out.push(f);
  return out.sort();
}

const LIT = 0;
const ANY = 1;
const CLASS = 2;
/** `*`: any run of characters but `/`. */
const STAR = 3;
/** `**\/` at a segment boundary: zero or more whole segments. */
const GLOBSTAR = 4;
/** A trailing `**`: everything below. */
const REST = 5;
const SLASH = 47;
const SOURCE: Record<number, string> = { [ANY]: '[^/]', [STAR]: '[^/]*', [GLOBSTAR]: '(?:[^/]*/)*', [REST]: '.*' };

interface Token {
  kind: number;
  /** LIT: the character; CLASS: the bracket expression as a RegExp class. */
  text: string;
}

function tokenize(glob: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          if (i + 2 === glob.length) out.push({ kind: REST, text: '' });
          else {
            out.push({ kind: GLOBSTAR, text: '' });
            i++;
          }
          i++;
          continue;
        }
        i++;
      }
      out.push({ kind: STAR, text: '' });
    } else if (c === '?') out.push({ kind: ANY, text: '' });
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        out.push({ kind: LIT, text: '[' });
        continue;
      }
      let body = glob.slice(i + 1, close);
      let negate = false;
      if (body[0] === '!' || body[0] === '^') {
        negate = true;
        body = body.slice(1);
      }
      out.push({ kind: CLASS, text: `[${negate ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]` });
      i = close;
    } else out.push({ kind: LIT, text: c });
  }
  return out;
}

/** What `.` does not match (a RegExp without the `s` flag), kept so both matchers agree. */
function isLineTerminator(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}
