import { isAbsolute, relative, resolve } from 'node:path';
import type { Context } from './context.js';

/** Resolve a user-given path against --cwd. */
export function resolvePath(ctx: Context, path: string): string {
  return isAbsolute(path) ? path : resolve(ctx.cwd, path);
}

/** How a path is shown to the user: relative to --cwd when inside it, absolute otherwise. */
export function displayPath(ctx: Context, absolute: string): string {
  return shownPath(ctx.cwd, absolute);
}

/** displayPath for a directory rather than a Context (the error report, made where no Context is at hand). */
export function shownPath(cwd: string, absolute: string): string {
  // State on a shared backend is named `postgres://...#key`: not a path to shorten.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(absolute) || !isAbsolute(absolute)) return absolute;
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

/** Files shipped with the CLI (protocol FSMs, examples), copied into assets/ at build time. */
export function assetPath(...segments: string[]): string {
  return resolve(new URL('../assets/', import.meta.url).pathname, ...segments);
}
