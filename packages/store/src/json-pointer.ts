/** RFC 6901 JSON pointers: the one way Ratchet names a place inside a JSON value. */

/** `['a', 0, 'b/c']` → `/a/0/b~1c`; `[]` → `""` (the whole document). Symbols use their description. */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    const text = typeof segment === 'symbol' ? (segment.description ?? '') : String(segment);
    out += `/${text.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return out;
}

/** `/a/0/b~1c` → `['a', '0', 'b/c']`; `undefined` when the text is not a pointer (must be "" or start with "/"). */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}
