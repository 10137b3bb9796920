/**
 * Paths from plans and options must stay inside the project: a delta path or a workspace directory
 * that escapes it (absolute, `..`, a drive letter, a NUL byte, or a symlink pointing out) is refused.
 * The checks are @ratchet/store's; this module adds the campaign rules and error contract.
 */
import { OutsideRootError, resolveInsideRoot, unsafeRelativePath } from '@ratchet/store';
import { CampaignError } from './errors.js';

/** Why `path` is not a safe project-relative path, or undefined when it is. Pure: no file system. */
export function unsafePathReason(path: string): string | undefined {
  // `~` would mean the home directory to the agent that reads the plan, not a folder named "~".
  if (path.startsWith('~')) return 'starts with ~; use a path relative to the project root';
  return unsafeRelativePath(path)?.reason;
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
