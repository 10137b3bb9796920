/**
 * Which paths are Ratchet's state: the files only `ratchet` may write. An agent that edits them by
 * hand (a session's current state, a claim, a log line) walks around every gate, so the
 * PreToolUse hook refuses any tool that writes one. Paths are judged the way the file system will
 * resolve them, not as written: `..` segments, absolute paths, symbolic links (on the file or any
 * directory above it, also links from outside the project into it) and letter case (a
 * case-insensitive file system, or a tool that folds case) cannot hide a state file.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { protectedEntry } from '../protected-paths.js';

/** The protected path `rel` (project-relative, `/`-separated) is, or undefined (see protected-paths.ts). */
export function stateKind(rel: string): string | undefined {
  return protectedEntry(rel) === undefined ? undefined : rel;
}

/**
 * `path` as the file system would resolve it: the deepest existing ancestor through realpath (links
 * followed, including a final link to a file), the rest appended lexically; a dangling link is
 * followed to where it points. Never throws, and never throws internally on the common path either
 * (an exception per missing component cost milliseconds on every tool call).
 */
export function realPathOf(abs: string, dirs?: DirectoryCache): string {
  if (dirs !== undefined) return realPathThrough(abs, dirs);
  let head = abs;
  const tail: string[] = [];
  for (let i = 0; i < 256; i++) {
    // Longer than the system's PATH_MAX: no file can be there (opening it fails), so look no further than its name.
    if (head.length > PATH_MAX) {
      const parent = dirname(head);
      if (parent === head) return join(head, ...tail);
      tail.unshift(basename(head));
      head = parent;
      continue;
    }
    if (existsSync(head)) {
      try {
        return join(realpathSync(head), ...tail);
      } catch {
        return join(head, ...tail);
      }
    }
    const st = lstatQuiet(head);
    if (st?.isSymbolicLink() === true) {
      const target = resolve(dirname(head), readlinkSafe(head));
      if (target === head) return join(head, ...tail);
      head = target;
      continue;
    }
    const parent = dirname(head);
    if (parent === head) return join(head, ...tail);
    tail.unshift(basename(head));
    head = parent;
  }
  return abs;
}

/** Linux's PATH_MAX (macOS has 1024): a longer path names no file. */
const PATH_MAX = 4096;

/**
 * Real paths of directories, kept for one decision: a command naming thousands of files in a few
 * directories resolves each directory once, then costs one lstat per file. Never kept longer (a
 * directory swapped for a link between two tool calls must be seen).
 */
export type DirectoryCache = Map<string, string>;

/**
 * realPathOf through `dirs`: a path that is not a link is its directory's real path plus its name,
 * as realpath itself would build it; links, and the directory's first resolution, take the full way.
 */
function realPathThrough(abs: string, dirs: DirectoryCache): string {
  const parent = dirname(abs);
  if (parent === abs || abs.length > PATH_MAX) return realPathOf(abs);
  const st = lstatQuiet(abs);
  if (st?.isSymbolicLink() === true) return realPathOf(abs);
  let real = dirs.get(parent);
  if (real === undefined) {
    real = realPathOf(parent);
    dirs.set(parent, real);
  }
  // Both parts are normalized already (a resolved path's name, a real path): no join needed.
  const name = abs.slice(parent.length + (parent.endsWith(sep) ? 0 : 1));
  return real.endsWith(sep) ? `${real}${name}` : `${real}${sep}${name}`;
}

/** lstat, undefined for no entry and for any error: a name too long, or a file where a directory should be, is no link. */
function lstatQuiet(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readlinkSafe(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return path;
  }
}

export interface ProjectRoot {
  /** As given. */
  root: string;
  /** Through realpath. */
  real: string;
}

export function projectRoot(root: string): ProjectRoot {
  return { root, real: realPathOf(resolve(root)) };
}

function relativeInside(root: string, abs: string): string | undefined {
  // The common case without path.relative's two resolves: `abs` (normalized) directly below `root`.
  if (abs === root) return '';
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  if (abs.startsWith(prefix) && isAbsolute(root) && !abs.includes(`${sep}..`)) return sep === '/' ? abs.slice(prefix.length) : abs.slice(prefix.length).split(sep).join('/');
  const rel = relative(root, abs);
  if (rel === '') return '';
  if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** The project-relative path of `path` (relative to `cwd`), as written and as resolved; undefined parts lie outside. */
export function placesOf(project: ProjectRoot, cwd: string, path: string, dirs?: DirectoryCache): { lexical: string | undefined; real: string | undefined } {
  const abs = resolve(cwd, path);
  const real = realPathOf(abs, dirs);
  return {
    lexical: relativeInside(project.root, abs) ?? relativeInside(project.real, abs),
    real: relativeInside(project.real, real) ?? relativeInside(project.root, real),
  };
}

/** The state file `path` writes to (project-relative), or undefined when it is not Ratchet state. */
export function stateFileOf(project: ProjectRoot, cwd: string, path: string, dirs?: DirectoryCache): string | undefined {
  if (path === '' || path.includes('\0')) return undefined;
  const { lexical, real } = placesOf(project, cwd, path, dirs);
  return (real !== undefined ? stateKind(real) : undefined) ?? (lexical !== undefined ? stateKind(lexical) : undefined);
}

/** Whether `path` resolves inside the project (as written or through its links). */
export function insideProject(project: ProjectRoot, cwd: string, path: string): string | undefined {
  const { lexical, real } = placesOf(project, cwd, path);
  return real ?? lexical;
}
