/**
 * `ratchet import`: finding the original systems' layouts in a directory and deciding, per file,
 * whether Ratchet reads it in place or converts it (and to where). Reading is done here with each
 * owning package's parser, so a broken input file is reported with its place before anything is
 * written; the conversions themselves are the packages' (campaign-dag's FTL import, memory's FTL
 * import).
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

export const SYSTEMS = ['jules', 'jixo', 'ftl', 'claude-orchestration', 'frontal-cortex'] as const;
export type System = (typeof SYSTEMS)[number];

export interface Problem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface InPlace {
  path: string;
  /** What reads it (a command or package). */
  by: string;
  /** True when the import parsed it with that reader (a broken one is a problem instead). */
  checked: boolean;
}

/** A file of the layout Ratchet does not read, and why. */
export interface Ignored {
  path: string;
  why: string;
}

export interface Conversion {
  from: string;
  to: string;
  how: string;
  /** planned (no --write), written, refused (the target exists: never overwritten). */
  status: 'planned' | 'written' | 'refused';
  reason?: string;
}

export interface SystemReport {
  system: System;
  found: string[];
  readInPlace: InPlace[];
  convert: Conversion[];
  ignored: Ignored[];
  problems: Problem[];
  notes: string[];
}

/** Every file under `dir` (relative, `/`-separated), skipping dependency and VCS folders; bounded. */
export async function listFiles(root: string, dir: string, max = 2000): Promise<string[]> {
  const out: string[] = [];
  const walk = async (abs: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= max) return;
      const child = join(abs, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name === '.git') continue;
        await walk(child);
      } else if (e.isFile()) out.push(relative(root, child).split('\\').join('/'));
    }
  };
  await walk(join(root, dir));
  return out;
}

/** Folders a search for a system's file never enters: dependencies, VCS, build output, Ratchet's own state. */
const NOT_SEARCHED = new Set(['node_modules', '.git', '.hg', '.svn', '.ratchet', 'dist', 'build', 'target', '.venv', 'venv', '__pycache__', '.tox']);

/**
 * Files named one of `names` anywhere under `root` (relative, sorted), at most `depth` folders
 * down and after visiting at most `budget` entries: where a system's users keep a file is theirs
 * to choose (Frontal Cortex's one public repository keeps its registry in documentation/).
 */
export async function findFiles(root: string, names: readonly string[], depth = 5, budget = 20_000): Promise<string[]> {
  const wanted = new Set(names);
  const out: string[] = [];
  let visited = 0;
  const walk = async (abs: string, level: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++visited > budget) return;
      if (e.isFile() && wanted.has(e.name)) out.push(relative(root, join(abs, e.name)).split('\\').join('/'));
      else if (e.isDirectory() && level < depth && !NOT_SEARCHED.has(e.name)) await walk(join(abs, e.name), level + 1);
    }
  };
  await walk(root, 0);
  return out.sort();
}

export async function exists(path: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** Which systems' layouts are present in `root` (cheap: existence checks only). */
export async function detectSystems(root: string): Promise<System[]> {
  const has = async (p: string): Promise<boolean> => (await exists(join(root, p))) !== undefined;
  const found: System[] = [];
  const julesMarks = await Promise.all(['AGENTS.md', 'tooling', 'knowledge_core', 'protocols', 'logs/activity.log.jsonl'].map(has));
  // AGENTS.md alone is common (Ratchet writes one too): Jules is its tooling/knowledge_core layout.
  if (julesMarks.filter(Boolean).length >= 2 && (julesMarks[1] === true || julesMarks[2] === true || julesMarks[4] === true)) found.push('jules');
  if (await has('.jixo')) found.push('jixo');
  if (await has('.ftl')) found.push('ftl');
  if ((await has('.claude/orchestration')) || (await has('.claude/memory'))) found.push('claude-orchestration');
  // An action-type registry anywhere, but not the protocols/action_types.json Ratchet itself writes
  // (a merged proposal): that one is Ratchet's, not a trace of Frontal Cortex.
  const registries = (await findFiles(root, ['action_types.yaml', 'action_types.yml', 'action_types.json'])).filter((f) => f !== 'protocols/action_types.json');
  if (registries.length > 0 || (await has('goals.yaml')) || (await has('goals.json'))) found.push('frontal-cortex');
  return found;
}
