/**
 * Storage keys: project-relative `/`-separated paths (`.ratchet/campaign.json`). The file backend
 * stores a key at `<root>/<key>`, so a key must never climb out of the root or mean two different
 * files; PostgreSQL stores it as text, and the same rules keep keys portable between the two.
 */
import { relative, sep } from 'node:path';
import { InvalidKeyError } from '../errors.js';

/** Longer keys are refused (well under PATH_MAX once joined to a root). */
export const MAX_KEY_LENGTH = 1024;

/** Why `key` is not a valid storage key, or undefined when it is. */
export function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return `a key must be a string, got ${key === null ? 'null' : typeof key}`;
  if (key.length === 0) return 'it is empty';
  if (key.length > MAX_KEY_LENGTH) return `it is longer than ${MAX_KEY_LENGTH} characters`;
  if (key.includes('\0')) return 'it contains a NUL byte';
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0001-\u001f\u007f]/u.test(key)) return 'it contains a control character';
  if (key.includes('\\')) return 'it contains a backslash (keys are "/"-separated)';
  if (key.startsWith('/')) return 'it starts with "/" (keys are relative to the project root)';
  if (/^[A-Za-z]:/u.test(key)) return 'it starts with a drive letter (keys are relative to the project root)';
  for (const segment of key.split('/')) {
    if (segment === '') return 'it has an empty segment ("//" or a trailing "/")';
    if (segment === '..') return 'it has a ".." segment';
    if (segment === '.') return 'it has a "." segment';
  }
  return undefined;
}

/**
 * The key of the state a package keeps at `path` in the project at `root`: the path relative to the
 * root, `/`-separated. Not checked here: the backend refuses a key leading out of the root.
 */
export function keyOf(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Throws InvalidKeyError (naming `location` and the key) unless `key` is a valid storage key. */
export function assertKey(location: string, key: string): void {
  const problem = keyProblem(key);
  if (problem !== undefined) throw new InvalidKeyError(location, String(key), problem);
}

/**
 * Throws InvalidKeyError unless `key` is a valid storage key ending in `.jsonl`. Logs carry the
 * extension on every backend: the file backend lists its logs by it (a walk of the project must not
 * take a user's `plan.json` or `package.json` for a log), and keys stay portable both ways.
 */
export function assertLogKey(location: string, key: string): void {
  assertKey(location, key);
  if (!key.endsWith('.jsonl')) throw new InvalidKeyError(location, key, 'a log key must end in ".jsonl"');
}

/**
 * A prefix for `list`: '' or anything a key can start with (so `.ratchet/` is fine, but not `../`).
 * Checked by the same rules on the prefix with a final partial segment allowed to be empty.
 */
export function assertPrefix(location: string, prefix: string): void {
  if (prefix === '') return;
  const problem = keyProblem(prefix.endsWith('/') ? `${prefix}x` : prefix);
  if (problem !== undefined) throw new InvalidKeyError(location, String(prefix), problem);
}
