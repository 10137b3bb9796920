/**
 * Paths from plans and options must stay inside the project: a delta path or a workspace directory
 * that escapes it (absolute, `..`, a drive letter, a NUL byte, or a symlink pointing out) is refused.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CampaignError } from './errors.js';

/** Why `path` is not a safe project-relative path, or undefined when it is. Pure: no file system. */
export function unsafePathReason(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.length > 4096) return 'is longer than 4096 characters';
  if (path.includes('\0')) return 'contains a NUL byte';
  if (isAbsolute(path) || path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return 'is absolute; use a path relative to the project root';
  if (path.startsWith('~')) return 'starts with ~; use a path relative to the project root';
  const parts = path.split(/[\\/]+/);
  let depth = 0;
  for (const part of parts) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return 'leaves the project root (..)';
  }
  return undefined;
}

/**
 * Resolve `path` (relative to `root`, or absolute) and refuse it unless it lies inside `root`, also
 * after following symlinks of the longest existing prefix. Returns the absolute path.
 */
export function resolveInside(root: string, path: string, what: string): string {
  const absRoot = resolve(root);
  if (path.includes('\0')) throw new CampaignError('outside-root', `${what} ${JSON.stringify(path)} contains a NUL byte`);
  const abs = resolve(absRoot, path);
  if (!inside(absRoot, abs)) throw new CampaignError('outside-root', `${what} ${path} is outside the project root ${absRoot}`);
  const realRoot = realOrSelf(absRoot);
  let probe = abs;
  // The longest existing prefix decides: a symlinked directory inside the project may point out of it.
  for (;;) {
    let real: string | undefined;
    try {
      real = realpathSync(probe);
    } catch {
      real = undefined;
    }
    if (real !== undefined) {
      if (!inside(realRoot, real)) throw new CampaignError('outside-root', `${what} ${path} resolves (through a symlink) outside the project root ${absRoot}`);
      break;
    }
    const up = dirname(probe);
    if (up === probe) break;
    probe = up;
  }
  return abs;
}

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
