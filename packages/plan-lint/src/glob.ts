/**
 * A small glob matcher (no dependency): `*` (within a segment), `**` (any number of segments),
 * `?` (one character), `[abc]`, `[a-z]`, `[!a]` / `[^a]`. Paths use forward slashes.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '^';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` matches zero or more whole segments; a trailing `**` matches everything below.
          if (i + 2 === glob.length) re += '.*';
          else {
            re += '(?:[^/]*/)*';
            i++;
          }
          i++;
          continue;
        }
        re += '[^/]*';
        i++;
        continue;
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      let negate = false;
      if (body[0] === '!' || body[0] === '^') {
        negate = true;
        body = body.slice(1);
      }
      re += `[${negate ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else re += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  return new RegExp(`${re}$`);
}

/** The paths in `files` that `glob` matches, sorted (deterministic expansion). */
export function matchGlob(glob: string, files: Iterable<string>): string[] {
  const re = globToRegExp(glob);
  const out: string[] = [];
  for (const f of files) if (re.test(f)) out.push(f);
  return out.sort();
}
