/**
 * The journal: what Ratchet last wrote to each tracked state file, kept where the tracked files are
 * not (under the user's state directory, outside the project). A digest record beside a file shows a
 * hand edit of the file alone; the journal shows what the record cannot:
 *   - a tracked file that vanished (`rm`, `git clean`, `git stash --all`): it reads as tampering,
 *     never as "no task";
 *   - a file whose digest record and last good copy were deleted before an edit;
 *   - a rollback of the file together with its record (`git reset --hard`, `checkout -- .`,
 *     `stash`, `restore .`): the record's revision is older than the one Ratchet last wrote;
 *   - a file Ratchet removed that came back.
 *
 * One JSON file per directory of tracked files, named by a hash of that directory's real path, so
 * a read costs one small file. The journal is detection, not a lock: a process with the user's
 * rights can edit it too (the README says so); where Claude Code's sandbox runs the agent's shell,
 * it cannot (the sandbox writes only the project and the temp directory).
 *
 * Order with the data write: the journal is written after the file's atomic rename. A crash in
 * between leaves the record one revision ahead of the journal, which reads as good (another
 * machine's write through a shared directory looks the same); only a record behind the journal, or
 * one at the journal's revision with other content, is a rollback.
 *
 * RATCHET_JOURNAL_DIR moves it (tests give each run its own); RATCHET_JOURNAL=off turns it off.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errors.js';
import { withLock } from './lock.js';
import { sha256Js } from './sha256.js';

/** What Ratchet last did to one file. */
export interface JournalEntry {
  /** SHA-256 of the content written (absent for a removal). */
  sha256?: string;
  /** The digest record's revision of that write. */
  revision: number;
  /** ISO time of the write or removal. */
  at: string;
  /** Ratchet removed the file (an archive, a delete through the storage port). */
  removed?: true;
}

interface JournalFile {
  version: 1;
  /** The directory's real path. */
  dir: string;
  files: Record<string, JournalEntry>;
}

const MAX_JOURNAL_BYTES = 4 * 1024 * 1024;

/** Where journals live, or undefined when the journal is off. */
export function journalRoot(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  if (env.RATCHET_JOURNAL === 'off') return undefined;
  if (env.RATCHET_JOURNAL_DIR !== undefined && env.RATCHET_JOURNAL_DIR !== '') return env.RATCHET_JOURNAL_DIR;
  const state = env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(safeHome(), '.local', 'state');
  return join(state, 'ratchet', 'journal');
}

function safeHome(): string {
  try {
    return homedir();
  } catch {
    return '/tmp';
  }
}

function realDir(path: string): string {
  const dir = dirname(path);
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** The journal file that covers `path` (absolute), or undefined when the journal is off. */
export function journalFileFor(path: string, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const root = journalRoot(env);
  if (root === undefined) return undefined;
  return join(root, `${sha256Js(Buffer.from(realDir(path), 'utf8')).slice(0, 32)}.json`);
}

function parseJournal(text: string): JournalFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const j = value as Record<string, unknown>;
  if (j.version !== 1 || typeof j.dir !== 'string' || typeof j.files !== 'object' || j.files === null || Array.isArray(j.files)) return undefined;
  const files: Record<string, JournalEntry> = Object.create(null) as Record<string, JournalEntry>;
  for (const [name, e] of Object.entries(j.files as Record<string, unknown>)) {
    if (typeof e !== 'object' || e === null) continue;
    const entry = e as Record<string, unknown>;
    if (!Number.isSafeInteger(entry.revision) || typeof entry.at !== 'string') continue;
    if (entry.removed !== true && typeof entry.sha256 !== 'string') continue;
    files[name] = { revision: entry.revision as number, at: entry.at, ...(typeof entry.sha256 === 'string' ? { sha256: entry.sha256 } : {}), ...(entry.removed === true ? { removed: true as const } : {}) };
  }
  return { version: 1, dir: j.dir, files };
}

function readJournalFile(file: string): JournalFile | undefined {
  let text: string;
  try {
    if (statSync(file).size > MAX_JOURNAL_BYTES) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseJournal(text);
}

/** What the journal says Ratchet last did to `path` (absolute), or undefined when it knows nothing. */
export function journalEntry(path: string, env: Readonly<Record<string, string | undefined>> = process.env): JournalEntry | undefined {
  const file = journalFileFor(path, env);
  if (file === undefined) return undefined;
  return readJournalFile(file)?.files[basename(path)];
}

/**
 * Record what Ratchet just did to `path`. Best effort: a journal that cannot be written (a read-only
 * home, a full disk) never fails the state write it follows; `ratchet doctor` says when it is missing.
 */
export async function recordJournal(path: string, entry: JournalEntry, env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  const file = journalFileFor(path, env);
  if (file === undefined) return;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    if (!existsSync(file)) pruneGone(dirname(file));
    await withLock(
      file,
      async () => {
        const current = readJournalFile(file) ?? { version: 1 as const, dir: realDir(path), files: Object.create(null) as Record<string, JournalEntry> };
        const files = { ...current.files, [basename(path)]: entry };
        await writeFileAtomic(file, `${JSON.stringify({ version: 1, dir: current.dir, files }, null, 1)}\n`, { syncDirectory: false });
      },
      { timeoutMs: 10_000 },
    );
  } catch (err) {
    // Detection only: never the reason a state write fails.
    if (process.env.RATCHET_DEBUG_JOURNAL === '1') process.stderr.write(`ratchet: journal ${file}: ${(err as Error).message} (${errnoCode(err) ?? ''})\n`);
  }
}

const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Journals of directories that no longer exist (throwaway projects, temp directories) are dropped,
 * at most once a day, when a new journal is started: the directory never grows without bound.
 */
function pruneGone(root: string): void {
  const marker = join(root, '.pruned');
  try {
    if (Date.now() - statSync(marker).mtimeMs < PRUNE_EVERY_MS) return;
  } catch {
    // No marker yet: prune now.
  }
  try {
    writeFileSync(marker, '');
    utimesSync(marker, new Date(), new Date());
    for (const name of readdirSync(root)) {
      if (!name.endsWith('.json')) continue;
      const journal = readJournalFile(join(root, name));
      if (journal !== undefined && !existsSync(journal.dir)) rmSync(join(root, name), { force: true });
    }
  } catch {
    // Housekeeping only.
  }
}

/** Every file the journal knows under `projectRoot` (real path), with what Ratchet last did to it. */
export function journalEntriesUnder(projectRoot: string, env: Readonly<Record<string, string | undefined>> = process.env): { path: string; entry: JournalEntry }[] {
  const root = journalRoot(env);
  if (root === undefined) return [];
  let real: string;
  try {
    real = realpathSync(projectRoot);
  } catch {
    return [];
  }
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: { path: string; entry: JournalEntry }[] = [];
  for (const name of names) {
    const journal = readJournalFile(join(root, name));
    if (journal === undefined) continue;
    if (journal.dir !== real && !journal.dir.startsWith(`${real}/`)) continue;
    for (const [file, entry] of Object.entries(journal.files)) out.push({ path: join(journal.dir, file), entry });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
