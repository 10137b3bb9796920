/**
 * Digests that show a hand edit. Every document `update` records what it wrote in a sidecar
 * `<file>.digest` and keeps a copy of it as `<file>.prev` (the last good version, for a person to
 * restore); a read whose content is not what Ratchet last wrote is refused with TamperedError. A
 * file without a sidecar is "not tracked" and read as before.
 *
 * Write order, inside the document's lock (a crash between any two steps leaves a state that reads
 * as good):
 *   0. the new content goes to a uniquely named temp file beside the data file (writeFileAtomic);
 *   1. the sidecar (atomic, its content fsynced; the directory is fsynced once, after step 3),
 *      naming the new content, the replaced one, and that temp file (`dataTemp`);
 *   2. `<file>.prev`: a copy of the new content (atomic rename, not fsynced: a restore checks it
 *      against the record first). A copy, not a hard link: an edit in place would change both;
 *   3. the data file's atomic rename: the temp file becomes the data file and its name is gone.
 * A crash after 1 and before 3 leaves the replaced content in the data file and the named temp file
 * beside it: a read accepts the previous content only while that temp file exists (and the data
 * file is still the replaced inode). Once the write completes the name no longer exists, and names
 * are never reused (pid and 48 random bits), so a hand rollback, whatever inode it lands on, is
 * refused. Inode identity alone was not enough: file systems reuse a freed inode number at once, and
 * a backup hard-linked to the old version keeps it. The next writer leaves the named temp file in
 * place while it reads (removeLeftovers' `keep`) and deletes it once its own rename is done.
 *
 * The read check hashes the text with a small JS hash for files up to QUICK_MAX characters (state
 * files on hot paths are a few KB, and loading node:crypto costs ~8 ms of CPU at start-up) and with
 * SHA-256 above that (native: ~1 ms per MB once loaded). Both are recorded on write; SHA-256 of a
 * small text is computed in JavaScript (sha256.ts) so that a write does not load node:crypto either.
 */
import { existsSync, linkSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { tempPathFor, writeFileAtomic } from './atomic-write.js';
import { IoError, NotFoundError, TamperedError, errnoCode } from './errors.js';
import { journalEntry, recordJournal, type JournalEntry } from './journal.js';
import { withLock, type LockOptions } from './lock.js';
import { readTextFileSync } from './read-file.js';
import { sha256Js } from './sha256.js';

/** What one version of a file was: enough to recognise it again. */
export interface Digest {
  /** SHA-256 of the file's text (UTF-8, without a BOM), hex. Equal to `sha256sum <file>` for files Ratchet wrote. */
  sha256: string;
  /** A 64-bit JS hash of the same text (hex), checked on reads of small files instead of SHA-256. */
  quick: string;
  /** Size in bytes. */
  size: number;
}

/** The sidecar `<file>.digest`. */
export interface DigestRecord {
  version: 1;
  /** The content Ratchet last wrote (or a person accepted). */
  current: Digest;
  /** The content that write replaced; null when there was none (or after an accept or a restore). */
  previous: Digest | null;
  /** ISO time of that write. */
  writtenAt: string;
  /** Inode of the file that write replaced (decimal), null when there was none: until the rename, the file is still that one. */
  replacedIno: string | null;
  /**
   * The name of the temp file (in the data file's directory) that write renames over the data file;
   * null or absent when there is no `previous`. While that file exists the rename has not happened,
   * and the replaced content still reads as good. Added after version 1 of the record: a record
   * without it (written by an older Ratchet) accepts only its current content.
   */
  dataTemp?: string | null;
  /**
   * The storage port's revision of `current` (1 for the first write, +1 per write). Added after
   * version 1 of the record without changing its version: older readers ignore it, and a record
   * without it (written by an older Ratchet) counts as revision 1.
   */
  revision?: number;
}

/** Files up to this many UTF-16 units are checked with the quick hash on read. */
export const QUICK_MAX = 64 * 1024;
const RETRIES = 20;

export const digestPathFor = (path: string): string => `${path}.digest`;
export const previousPathFor = (path: string): string => `${path}.prev`;

interface HashModule {
  createHash(algorithm: string): { update(data: string, encoding: 'utf8'): { digest(encoding: 'hex'): string } };
}
let crypto: HashModule | undefined;

/** Texts up to this many UTF-16 units get their SHA-256 in JavaScript: cold, it beats loading node:crypto only for small inputs. */
const SHA256_JS_MAX = 8 * 1024;

/**
 * SHA-256 of `text` as UTF-8: in JavaScript up to SHA256_JS_MAX characters (see sha256.ts), natively
 * above, where node:crypto is loaded on first use.
 */
export function sha256Hex(text: string): string {
  if (text.length <= SHA256_JS_MAX) return sha256Js(Buffer.from(text, 'utf8'));
  crypto ??= process.getBuiltinModule('node:crypto') as HashModule;
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Two 32-bit multiplicative lanes over the UTF-16 units, mixed at the end (cyrb53's scheme, kept at 64 bits). */
export function quickHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

export function digestOf(text: string): Digest {
  return { sha256: sha256Hex(text), quick: quickHash(text), size: Buffer.byteLength(text, 'utf8') };
}

/** Whether `text` is the version `digest` describes: size first, then the hash that fits its length. */
export function matchesDigest(text: string, digest: Digest, full = false): boolean {
  if (Buffer.byteLength(text, 'utf8') !== digest.size) return false;
  return !full && text.length <= QUICK_MAX ? quickHash(text) === digest.quick : sha256Hex(text) === digest.sha256;
}

/** The sidecar's text, or undefined when there is none. */
function readRecordText(path: string): string | undefined {
  try {
    return readFileSync(digestPathFor(path), 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw new IoError(digestPathFor(path), `cannot read the digest record: ${(err as Error).message}`, err);
  }
}

function parseRecord(text: string): DigestRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const ok = r.version === 1 && isDigest(r.current) && (r.previous === null || isDigest(r.previous)) && typeof r.writtenAt === 'string' && (r.replacedIno === null || typeof r.replacedIno === 'string') && (r.dataTemp === undefined || r.dataTemp === null || typeof r.dataTemp === 'string');
  return ok ? (value as DigestRecord) : undefined;
}

/**
 * The temp file a record says its write was about to rename over `path`, when the name is one
 * writeFileAtomic makes for that file (a record is read from disk: no other name is looked at).
 */
function pendingTempPath(path: string, record: DigestRecord): string | undefined {
  const name = record.dataTemp;
  if (typeof name !== 'string') return undefined;
  const real = realPathOrSelf(path);
  const base = basename(real);
  const prefix = `.${base}.`;
  return name.startsWith(prefix) && TEMP_SUFFIX.test(name.slice(prefix.length)) ? join(dirname(real), name) : undefined;
}

/** `<pid>.<12 hex>.tmp`, the tail of tempPathFor's names. */
const TEMP_SUFFIX = /^\d+\.[0-9a-f]{12}\.tmp$/u;

function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * @internal The name of the temp file the digest record of `path` names as not yet renamed
 * (undefined: none, or no record): the store's writers leave it in place while they read.
 */
export function pendingTempName(path: string): string | undefined {
  let record: DigestRecord | undefined;
  try {
    const text = readRecordText(path);
    record = text === undefined ? undefined : parseRecord(text);
  } catch {
    return undefined;
  }
  const temp = record === undefined ? undefined : pendingTempPath(path, record);
  return temp === undefined ? undefined : basename(temp);
}

function inodeOf(path: string): string | undefined {
  try {
    return statSync(path, { bigint: true }).ino.toString();
  } catch {
    return undefined;
  }
}

function isDigest(value: unknown): value is Digest {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  return typeof d.sha256 === 'string' && typeof d.quick === 'string' && Number.isSafeInteger(d.size);
}

/** The sidecar of `path`: undefined when there is none; throws TamperedError when it is not a digest record. */
export function readDigestRecord(path: string): DigestRecord | undefined {
  const text = readRecordText(path);
  if (text === undefined) return undefined;
  const record = parseRecord(text);
  if (record === undefined) throw new TamperedError(path, 'bad-record', undefined, `its digest record ${digestPathFor(path)} is not one Ratchet wrote`);
  return record;
}

/** Undefined when `text` (undefined: no file) is acceptable under the sidecar text `recordText`, else the error to throw. */
/**
 * The revision of `text` (0: no file) when it is acceptable under the sidecar text `recordText`, else
 * the error to throw. The revision comes from the same comparison (each text is hashed once): the
 * record's for its current content (1 without one), one less for the content a write was replacing.
 */
function judge(path: string, text: string | undefined, recordText: string | undefined, full: boolean): number | TamperedError {
  if (text === undefined) return 0;
  if (recordText === undefined) {
    // Sidecars are never deleted by Ratchet, and `.prev` only exists beside one: a removed sidecar is an edit too.
    return existsSync(previousPathFor(path)) ? new TamperedError(path, 'missing-record', undefined, `its digest record ${digestPathFor(path)} was removed`) : 1;
  }
  const record = parseRecord(recordText);
  if (record === undefined) return new TamperedError(path, 'bad-record', undefined, `its digest record ${digestPathFor(path)} is not one Ratchet wrote`);
  const revision = validRevision(record.revision);
  if (matchesDigest(text, record.current, full)) return revision;
  if (record.previous !== null && matchesDigest(text, record.previous, full) && renameIsPending(path, record)) return Math.max(1, revision - 1);
  return new TamperedError(path, 'mismatch', record.writtenAt);
}

/**
 * Throw TamperedError unless `text` (what a caller just read from `path`; undefined: no file) is
 * what Ratchet last wrote; return the text that passed (a re-read one after a race with a writer). Lock-free readers can race a writer (data read before its rename, the
 * sidecar after): on a mismatch both are read again, and only a mismatch seen twice on unchanged
 * data and sidecar is reported. `reread` returns the file's text again (undefined: gone).
 */
export function checkDigest(path: string, text: string | undefined, reread: () => string | undefined, options: { full?: boolean } = {}): string | undefined {
  return checkDigestRevision(path, text, reread, options).text;
}

/**
 * `checkDigest`, also returning the revision of the text that passed: 0 when there is no file, the
 * record's `revision` (1 without one) for its current content, one less for the content a crashed
 * or racing write was replacing.
 */
export function checkDigestRevision(path: string, text: string | undefined, reread: () => string | undefined, options: { full?: boolean } = {}): { text: string | undefined; revision: number } {
  let seen: { text: string | undefined; record: string | undefined } | undefined;
  for (let attempt = 0; ; attempt++) {
    const record = readRecordText(path);
    let verdict = judge(path, text, record, options.full === true);
    if (typeof verdict === 'number') verdict = journalVerdict(path, text, record) ?? verdict;
    if (typeof verdict === 'number') return { text, revision: verdict };
    const error = verdict;
    if ((seen !== undefined && seen.text === text && seen.record === record) || attempt >= RETRIES) throw error;
    seen = { text, record };
    if (attempt >= 2) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    text = reread();
  }
}

/**
 * What the journal (see journal.ts) says of a read the digest record accepted: undefined when it
 * agrees (or knows nothing), else the tampering it shows: a file Ratchet wrote that is gone, one
 * whose record was removed, or a record older than the one Ratchet last wrote (a rollback).
 */
function journalVerdict(path: string, text: string | undefined, recordText: string | undefined): TamperedError | undefined {
  const entry = journalEntry(resolve(path));
  if (entry === undefined) return undefined;
  const when = `Ratchet last wrote revision ${entry.revision} at ${entry.at}`;
  if (entry.removed === true) {
    return text === undefined ? undefined : new TamperedError(path, 'rolled-back', entry.at, `Ratchet removed it at ${entry.at}, and it is back (a git checkout, stash pop or restore?)`);
  }
  if (text === undefined) return new TamperedError(path, 'vanished', entry.at, `it was removed outside Ratchet (${when}); a missing state file is never read as "nothing started"`);
  const record = recordText === undefined ? undefined : parseRecord(recordText);
  if (record === undefined) return new TamperedError(path, 'missing-record', entry.at, `its digest record ${digestPathFor(path)} was removed (${when})`);
  const revision = validRevision(record.revision);
  if (revision < entry.revision) {
    return new TamperedError(path, 'rolled-back', entry.at, `it was rolled back to revision ${revision} together with its digest record (${when}; a git reset, checkout, stash or restore?)`);
  }
  if (revision === entry.revision && entry.sha256 !== undefined && record.current.sha256 !== entry.sha256) {
    return new TamperedError(path, 'mismatch', entry.at, `its digest record is not the one Ratchet wrote for revision ${revision} (${when})`);
  }
  return undefined;
}

/** Whether the write `record` describes has not renamed its data yet: its temp file is still there, and the data file is still the one it replaces. */
function renameIsPending(path: string, record: DigestRecord): boolean {
  const temp = pendingTempPath(path, record);
  return temp !== undefined && existsSync(temp) && record.replacedIno !== null && inodeOf(path) === record.replacedIno;
}

function validRevision(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : 1;
}

/** The revision the next write of `path` gets: 1 for a new file, else the recorded one + 1. */
export function nextRevision(path: string, exists: boolean): number {
  if (!exists) return 1;
  const text = readRecordText(path);
  const record = text === undefined ? undefined : parseRecord(text);
  return validRevision(record?.revision) + 1;
}

export interface TrackedWrite {
  /** ISO time recorded as `writtenAt`. */
  writtenAt: string;
  /** The text being replaced (what the update read inside the lock); undefined when there is none to accept during the write. */
  replacing: string | undefined;
  beforeRename?: () => Promise<void>;
  /** The limit the file's readers use: content over it is refused before anything is written. */
  maxBytes?: number;
  /** The revision to record; default: the recorded one + 1 (1 when `replacing` is undefined). */
  revision?: number;
}

/** Write `text` to `path` atomically with its digest record, in the order the module comment gives. Call inside the file's lock. */
export async function writeTracked(path: string, text: string, options: TrackedWrite): Promise<void> {
  const current = digestOf(text);
  const previous = options.replacing === undefined ? null : digestOf(options.replacing);
  let written = 1;
  // A temp file an earlier, crashed write left for its record: garbage once this write's rename is done.
  let crashedTemp: string | undefined;
  await writeFileAtomic(path, text, {
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    beforeRename: async (temp) => {
      await options.beforeRename?.();
      const recordText = readRecordText(path);
      const old = recordText === undefined ? undefined : parseRecord(recordText);
      crashedTemp = old === undefined ? undefined : pendingTempPath(path, old);
      const revision = options.revision ?? (options.replacing === undefined ? 1 : validRevision(old?.revision) + 1);
      written = revision;
      const record: DigestRecord = {
        version: 1,
        current,
        previous,
        writtenAt: options.writtenAt,
        replacedIno: previous === null ? null : (inodeOf(path) ?? null),
        dataTemp: previous === null ? null : basename(temp),
        revision,
      };
      await writeRecord(path, record, false);
      keepCopy(path, text);
    },
  });
  if (crashedTemp !== undefined) removeQuietly(crashedTemp);
  await recordJournal(resolve(path), { sha256: current.sha256, revision: written, at: options.writtenAt });
}

/** Tell the journal that Ratchet removed `path` on purpose (an archive, a delete): its absence is not tampering. */
export async function recordRemoval(path: string, at: string = new Date().toISOString()): Promise<void> {
  const before: JournalEntry | undefined = journalEntry(resolve(path));
  await recordJournal(resolve(path), { revision: before?.revision ?? 0, at, removed: true });
}

export async function writeRecord(path: string, record: DigestRecord, syncDirectory = true): Promise<void> {
  await writeFileAtomic(digestPathFor(path), `${JSON.stringify(record, null, 2)}\n`, { syncDirectory });
}

/** `<file>.prev` := `text`, replaced atomically. */
function keepCopy(path: string, text: string): void {
  const prev = previousPathFor(path);
  const temp = tempPathFor(prev);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    renameSync(temp, prev);
  } catch (err) {
    removeQuietly(temp);
    throw new IoError(prev, `cannot keep a copy of the last good version: ${(err as Error).message}`, err);
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Not there: nothing to remove.
  }
}

export interface DigestAdminOptions {
  /** Lock behaviour (timeout, clock for the lock file and for `writtenAt`). */
  lock?: Omit<LockOptions, 'leaseMs' | 'createParentDirs'>;
}

/**
 * A person's "this content is good": record the file's current text as what Ratchet last wrote and
 * keep a copy of it as the last good version (under the file's lock).
 */
export async function acceptCurrent(path: string, options: DigestAdminOptions = {}): Promise<DigestRecord> {
  const file = resolve(path);
  const clock = options.lock?.clock ?? Date.now;
  return withLock(
    file,
    async () => {
      const text = readTextFileSync(file).text;
      // Accepted content is a new version of the document: readers holding the old revision must notice.
      const record: DigestRecord = { version: 1, current: digestOf(text), previous: null, writtenAt: new Date(clock()).toISOString(), replacedIno: null, revision: nextRevision(file, true) };
      await writeRecord(file, record);
      keepCopy(file, text);
      await recordJournal(file, { sha256: record.current.sha256, revision: record.revision ?? 1, at: record.writtenAt });
      return record;
    },
    { ...options.lock, leaseMs: undefined },
  );
}

export interface RestoreResult {
  /** The digest of the version put back. */
  restored: Digest;
  /** Where the refused content was kept (`<file>.rejected-<time>`); undefined when the file was missing. */
  rejectedPath: string | undefined;
}

/**
 * Put back the last good version (`<file>.prev`, checked against the digest record: normally what
 * Ratchet last wrote) under the file's lock; the content it replaces is kept aside as
 * `<file>.rejected-<time>`.
 */
export async function restorePrevious(path: string, options: DigestAdminOptions = {}): Promise<RestoreResult> {
  const file = resolve(path);
  const clock = options.lock?.clock ?? Date.now;
  return withLock(
    file,
    async (lock) => {
      const record = readDigestRecord(file);
      if (record === undefined) throw new NotFoundError(digestPathFor(file), 'no digest record: Ratchet keeps no last good version of this file');
      const prevPath = previousPathFor(file);
      const prevText = textOrUndefined(prevPath);
      if (prevText === undefined) throw new NotFoundError(prevPath, 'no copy of the last good version is kept (accept the content, or fix it by hand and accept)');
      const good = [record.current, record.previous].find((d): d is Digest => d !== null && matchesDigest(prevText, d, true));
      if (good === undefined) throw new TamperedError(prevPath, 'mismatch', record.writtenAt, 'the kept copy of the last good version matches no digest Ratchet recorded');
      const now = new Date(clock()).toISOString();
      let rejectedPath: string | undefined;
      const text = textOrUndefined(file);
      if (text !== undefined) {
        rejectedPath = `${file}.rejected-${now.replace(/[:.]/gu, '-')}`;
        try {
          linkSync(file, rejectedPath);
        } catch {
          writeFileSync(rejectedPath, text, { flag: 'wx' });
        }
      }
      // No `previous`: until the rename, the refused content stays refused.
      await writeTracked(file, prevText, { writtenAt: now, replacing: undefined, beforeRename: () => lock.verify(), revision: nextRevision(file, true) });
      return { restored: good, rejectedPath };
    },
    { ...options.lock, leaseMs: undefined },
  );
}

function textOrUndefined(path: string): string | undefined {
  try {
    return readTextFileSync(path).text;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
