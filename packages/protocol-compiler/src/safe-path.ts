/**
 * Paths named by files in the repository (compile targets in protocols/compile.json, lessons and
 * their diffs) resolve inside the project root or are refused: absolute paths, `..` segments, NUL
 * bytes, and symlinks (on the file or any parent) that lead outside.
 */
import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ProtocolError } from './errors.js';

export async function resolveInsideRoot(root: string, path: string, what = 'path'): Promise<string> {
  const refuse = (why: string): never => {
    throw new ProtocolError('unsafe-path', path, `${what} refused: ${why}`);
  };
  if (path === '' || path.includes('\0')) refuse('empty or contains a NUL byte');
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('\\')) refuse('absolute paths are not allowed; use a path relative to the project root');
  if (path.split(/[\\/]/).includes('..')) refuse('".." segments are not allowed');
  const realRoot = await realpath(root);
  const target = resolve(realRoot, path);
  if (!isInside(realRoot, target)) refuse('it resolves outside the project root');
  // Follow symlinks: the deepest existing ancestor (or the file itself) must stay inside the root.
  let probe = target;
  for (;;) {
    const exists = await lstat(probe).then(() => true, () => false);
    if (exists) {
      const real = await realpath(probe).catch(() => undefined);
      if (real === undefined) refuse('a symlink on the path is broken');
      if (!isInside(realRoot, real!)) refuse('a symlink on the path leads outside the project root');
      break;
    }
    const parent = dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  return target;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
