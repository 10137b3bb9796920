/**
 * Paths from plans and options must stay inside the project: a delta path or a workspace directory
 * that escapes it (absolute, `..`, a drive letter, a NUL byte, or a symlink pointing out) is refused.
 * The checks are @ratchet/store's; this module adds the campaign rules and error contract.
 */
import { lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OutsideRootError, resolveInsideRoot, unsafeRelativePath } from '@ratchet/store';
import { CampaignError } from './errors.js';

/** Why `path` is not a safe project-relative path, or undefined when it is. Pure: no file system. */
export function unsafePathReason(path: string): string | undefined {
  // `~` would mean the home directory to the agent that reads the plan, not a folder named "~".
  if (path.startsWith('~')) return 'starts with ~; use a path relative to the project root';
  return unsafeRelativePath(path)?.reason;
}

/** `unsafePathReason`, then the file system: a symbolic link on the path (file or directory) leading out of `root`. */
export function outsideReason(root: string, path: string): string | undefined {
  const lexical = unsafePathReason(path);
  if (lexical !== undefined) return lexical;
  try {
    resolveInsideRoot(root, path);
    return undefined;
  } catch (err) {
    if (err instanceof OutsideRootError) return err.reason;
    throw err;
  }
}

/**
 * `outsideReason` for many paths (a plan's deltas): a path that is not itself a symbolic link is
 * inside exactly when its directory is, so directories are resolved once each.
 */
export function outsideChecker(root: string): (path: string) => string | undefined {
  const dirs = new Map<string, string | undefined>();
  return (path) => {
    const lexical = unsafePathReason(path);
    if (lexical !== undefined) return lexical;
    if (isLink(resolve(root, path))) return outsideReason(root, path);
    const dir = dirname(path);
    if (dir === '.' || dir === '') return undefined;
    if (!dirs.has(dir)) dirs.set(dir, outsideReason(root, dir));
    const why = dirs.get(dir);
    return why === undefined ? undefined : why;
  };
}

function isLink(abs: string): boolean {
  try {
    return lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/**
 * Resolve `path` (relative to `root`, or absolute) and refuse it unless it lies inside `root`, also
 * after following symlinks of the longest existing prefix. Returns the absolute path.
 */
export function resolveInside(root: string, path: string, what: string): string {
  try {
    return resolveInsideRoot(root, path, { allowAbsolute: true });
  } catch (err) {
    if (err instanceof OutsideRootError) throw new CampaignError('outside-root', `${what} ${JSON.stringify(path)} ${err.reason}`);
    throw err;
  }
}
