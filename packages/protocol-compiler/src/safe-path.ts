/**
 * Paths named by files in the repository (compile targets in protocols/compile.json, lessons and
 * their diffs) resolve inside the project root or are refused: absolute paths, `..` segments, NUL
 * bytes, and symlinks (on the file or any parent) that lead outside. The check is the store's; this
 * wrapper gives it the protocol error contract (`unsafe-path`, exit 2).
 */
import { OutsideRootError, resolveInsideRoot as resolveInStore } from '@ratchet/store';
import { ProtocolError } from './errors.js';

/** Async for its callers' sake (it is part of the public API); the check itself is synchronous. */
export function resolveInsideRoot(root: string, path: string, what = 'path'): Promise<string> {
  try {
    // No `..` at all: a person writes these paths from the project root.
    return Promise.resolve(resolveInStore(root, path, { allowDotDot: false }));
  } catch (err) {
    return Promise.reject(err instanceof OutsideRootError ? new ProtocolError('unsafe-path', path, `${what} refused: ${err.reason}`) : (err as Error));
  }
}
