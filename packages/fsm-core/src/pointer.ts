/**
 * JSON Pointers (RFC 6901). Diagnostics carry a pointer into the user's original document so the
 * CLI, which still has the source text, can turn it into file:line:column.
 */

/** Escape one reference token: `~` first, then `/`, as the RFC requires. */
export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Join a base pointer and reference tokens: `pointer('/transitions', 'A', 'b')` is `/transitions/A/b`. */
export function pointer(base: string, ...tokens: (string | number)[]): string {
  let out = base;
  for (const token of tokens) out += `/${escapeToken(token)}`;
  return out;
}

/** Split a pointer into its unescaped reference tokens. */
export function parsePointer(ptr: string): string[] {
  if (ptr === '') return [];
  return ptr
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Resolve a pointer in a plain JSON value; `found: false` when it leads nowhere. Own properties
 * only, so a `__proto__` or `constructor` token never reaches Object.prototype.
 */
export function resolvePointer(doc: unknown, ptr: string): { found: true; value: unknown } | { found: false } {
  let value = doc;
  for (const token of parsePointer(ptr)) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) return { found: false };
      value = value[Number(token)];
    } else if (value !== null && typeof value === 'object' && Object.hasOwn(value, token)) {
      value = (value as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value };
}
