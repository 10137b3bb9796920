/**
 * Project-relative paths. Plans, registries and command arguments name files relative to the
 * project root; anything absolute or climbing out with `..` is refused (undefined), lexically, so
 * the pure core never touches the disk.
 */
const NEEDS_WORK = /\\|\/\/|(^|\/)\.\.?(\/|$)|^\/|\/$/;
const ABSOLUTE = /^(\/|\\|[A-Za-z]:)/;

/** `./a//b/../c` -> `a/c`; undefined when absolute, empty or outside the root. */
export function normalizeRelative(path: string): string | undefined {
  if (path.length === 0 || ABSOLUTE.test(path)) return undefined;
  if (!NEEDS_WORK.test(path)) return path;
  const out: string[] = [];
  for (const seg of path.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.length === 0 ? undefined : out.join('/');
}
