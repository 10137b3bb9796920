/**
 * Paths that come from files and options (a compile target, a lesson's diff, a campaign's delta, a
 * flow's artifact, a registered plan) must stay inside the project. One implementation for every
 * package: the lexical checks (absolute, drive letter, `..`, NUL, length) and then the file system,
 * because a symbolic link inside the project (on the file or any directory above it) may lead out.
 *
 * Synchronous on purpose: a handful of lstat/realpath calls, from CLI commands and from async code
 * alike, and one implementation instead of a sync and an async copy.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { OutsideRootError, type OutsideRootKind } from './errors.js';

/** Longer paths are refused before touching the file system (PATH_MAX on Linux). */
export const MAX_PATH_LENGTH = 4096;

export interface InsideRootOptions {
  /** Accept an absolute path when it lies inside the root. Default false: project-relative only. */
  allowAbsolute?: boolean;
  /**
   * Accept `..` segments that stay inside the root (`a/../b`). Default true; false refuses any
   * `..` segment, for paths a person writes in a file, where `..` is never needed.
   */
  allowDotDot?: boolean;
  /** Follow symbolic links on the path. Default true; false checks the path lexically only. */
  followSymlinks?: boolean;
}

export interface UnsafePath {
  kind: OutsideRootKind;
  reason: string;
}

/** Why `path` cannot name a file inside a project, or undefined when it can. Pure: no file system. */
export function unsafeRelativePath(path: string, options: InsideRootOptions = {}): UnsafePath | undefined {
  if (path.length === 0) return { kind: 'empty', reason: 'is empty' };
  if (path.length > MAX_PATH_LENGTH) return { kind: 'too-long', reason: `is longer than ${MAX_PATH_LENGTH} characters` };
  if (path.includes('\0')) return { kind: 'nul', reason: 'contains a NUL byte' };
  // A drive letter or a leading backslash is absolute on Windows, so it is refused everywhere.
  if (options.allowAbsolute !== true && (isAbsolute(path) || path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path))) {
    return { kind: 'absolute', reason: 'is absolute; use a path relative to the project root' };
  }
  if (isAbsolute(path)) return undefined; // allowed absolute paths are judged by where they resolve
  let depth = 0;
  for (const part of path.split(/[\\/]+/)) {
    if (part === '..') {
      if (options.allowDotDot === false) return { kind: 'dot-dot', reason: 'has a ".." segment; name the file from the project root' };
      depth--;
    } else if (part !== '.' && part !== '') depth++;
    if (depth < 0) return { kind: 'outside', reason: 'is outside the project root (its ".." segments climb out of it)' };
  }
  return undefined;
}

/** Whether the absolute path `abs` is `root` or lies under it (both taken as given, no symlinks). */
export function isInsideRoot(root: string, abs: string): boolean {
  const rel = relative(resolve(root), resolve(abs));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Resolve `path` against `root` and return the absolute path, or throw OutsideRootError saying why
 * it is refused. With symlinks followed (the default), the file itself or, when it does not exist
 * yet, its deepest existing ancestor must resolve inside the root's real path; a broken symbolic
 * link is refused, since writing through it would create its target wherever that is.
 */
export function resolveInsideRoot(root: string, path: string, options: InsideRootOptions = {}): string {
  const absRoot = resolve(root);
  const refuse = (kind: OutsideRootKind, reason: string): never => {
    throw new OutsideRootError(path, absRoot, kind, reason);
  };
  const lexical = unsafeRelativePath(path, options);
  if (lexical !== undefined) refuse(lexical.kind, lexical.reason);
  const abs = resolve(absRoot, path.replace(/\\/g, '/'));
  if (!isInsideRoot(absRoot, abs)) refuse('outside', `resolves outside the project root ${absRoot}`);
  if (options.followSymlinks === false) return abs;
  const realRoot = realOrSelf(absRoot);
  for (let probe = abs; ; ) {
    if (exists(probe)) {
      let real: string;
      try {
        real = realpathSync(probe);
      } catch {
        return refuse('broken-symlink', 'has a broken symbolic link on it');
      }
      if (!isInsideRoot(realRoot, real)) refuse('symlink', `leads through a symbolic link to ${real}, outside the project root ${absRoot}`);
      return abs;
    }
    const up = dirname(probe);
    if (up === probe) return abs;
    probe = up;
  }
}

/** lstat without following the last link; ENOTDIR (a file used as a directory) counts as absent. */
function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
