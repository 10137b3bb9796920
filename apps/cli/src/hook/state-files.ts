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
import { CONFIG_FILE } from './config.js';
import { HOOK_CONFIG_PATHS } from './harness-files.js';

/** Project-relative, lower-case, `/`-separated patterns. A trailing `/` covers the whole directory. */
export const STATE_PATHS = [
  '.ratchet/',
  'logs/activity.log.jsonl',
  'knowledge_core/lessons.jsonl',
  'knowledge_core/plan_registry.json',
  'protocols/action_types.json',
  CONFIG_FILE,
  // The hooks themselves, in every harness: an agent that rewrote them would switch the rails off.
  ...HOOK_CONFIG_PATHS,
];

/** What the store keeps beside a state file: its lock, digest record and last good version. */
const STATE_SUFFIX = /^\.(?:lock(?:\.break)?|digest|prev)$/;

/** JIXO logs (`*.log.md`) anywhere in the project, and any lock file beside one. */
const JIXO_LOG = /\.log\.md(?:\.lock(?:\.break)?)?$/;

/** The state path `rel` (project-relative, `/`-separated) is, or undefined. */
export function stateKind(rel: string): string | undefined {
  const key = rel.toLowerCase();
  for (const p of STATE_PATHS) {
    if (p.endsWith('/') ? key === p.slice(0, -1) || key.startsWith(p) : key === p || STATE_SUFFIX.test(key.slice(p.length))) return rel;
  }
  return JIXO_LOG.test(key) ? rel : undefined;
}

/**
 * `path` as the file system would resolve it: the deepest existing ancestor through realpath (links
 * followed, including a final link to a file), the rest appended lexically; a dangling link is
 * followed to where it points. Never throws, and never throws internally on the common path either
 * (an exception per missing component cost milliseconds on every tool call).
 */
export function realPathOf(abs: string): string {
  let head = abs;
  const tail: string[] = [];
  for (let i = 0; i < 256; i++) {
    if (existsSync(head)) {
      try {
        return join(realpathSync(head), ...tail);
      } catch {
        return join(head, ...tail);
      }
    }
    const st = lstatSync(head, { throwIfNoEntry: false });
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
  const rel = relative(root, abs);
  if (rel === '') return '';
  if (rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** The project-relative path of `path` (relative to `cwd`), as written and as resolved; undefined parts lie outside. */
export function placesOf(project: ProjectRoot, cwd: string, path: string): { lexical: string | undefined; real: string | undefined } {
  const abs = resolve(cwd, path);
  const real = realPathOf(abs);
  return {
    lexical: relativeInside(project.root, abs) ?? relativeInside(project.real, abs),
    real: relativeInside(project.real, real) ?? relativeInside(project.root, real),
  };
}

/** The state file `path` writes to (project-relative), or undefined when it is not Ratchet state. */
export function stateFileOf(project: ProjectRoot, cwd: string, path: string): string | undefined {
  if (path === '' || path.includes('\0')) return undefined;
  const { lexical, real } = placesOf(project, cwd, path);
  return (real !== undefined ? stateKind(real) : undefined) ?? (lexical !== undefined ? stateKind(lexical) : undefined);
}

/** Whether `path` resolves inside the project (as written or through its links). */
export function insideProject(project: ProjectRoot, cwd: string, path: string): string | undefined {
  const { lexical, real } = placesOf(project, cwd, path);
  return real ?? lexical;
}
