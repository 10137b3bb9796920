/**
 * The file operations under the lock protocol (see lock.ts): creating a lock or guard file
 * atomically and complete, and reading holder metadata back, telling "absent" from "corrupt".
 *
 * Lock, guard and temp files are a few hundred bytes, and most steps are metadata operations
 * (link, unlink, stat): synchronous calls take microseconds, while every asynchronous one costs a
 * thread-pool round trip (~0.1 ms) - under contention most of a lock's price. Only fsync, which can
 * take milliseconds on a slow disk, stays asynchronous.
 */
import { closeSync, constants, fstatSync, fsync, linkSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { tempPathFor } from './atomic-write.js';
import { IoError, LockCorruptError, NotFoundError, StoreError, errnoCode, type LockHolder } from './errors.js';
import { parseJson } from './json-parse.js';

const fsyncAsync = promisify(fsync);

/** Tokens name guard files, so they are restricted to characters safe in a file name. */
export const TOKEN = /^[A-Za-z0-9_-]{1,128}$/u;
const MAX_LOCK_FILE_BYTES = 64 * 1024;

/**
 * Create `file` with `content`, or return false if it exists. The content is complete (and, when
 * `durable`, on disk) before the file appears: temp file, then link. A temp file lost to a holder's
 * cleanup is simply retried.
 */
export async function createExclusive(target: string, file: string, content: string, durable: boolean): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const temp = tempPathFor(file);
    let fd: number | undefined;
    let linking = false;
    try {
      fd = openSync(temp, 'wx');
      writeAll(fd, content);
      if (durable) await fsyncAsync(fd);
      closeSync(fd);
      fd = undefined;
      linking = true;
      linkSync(temp, file);
      return true;
    } catch (err) {
      if (linking && errnoCode(err) === 'EEXIST') return false;
      if (!retryable(target, file, err) || attempt >= 20) throw linkError(target, file, err);
    } finally {
      if (fd !== undefined) closeSync(fd);
      removeQuietly(temp);
    }
  }
}

/** `createExclusive` without fsync, fully synchronous (for guards). */
export function createExclusiveNow(target: string, file: string, content: string): boolean {
  for (let attempt = 0; ; attempt++) {
    const temp = tempPathFor(file);
    let linking = false;
    try {
      const fd = openSync(temp, 'wx');
      try {
        writeAll(fd, content);
      } finally {
        closeSync(fd);
      }
      linking = true;
      linkSync(temp, file);
      return true;
    } catch (err) {
      if (linking && errnoCode(err) === 'EEXIST') return false;
      if (!retryable(target, file, err) || attempt >= 20) throw linkError(target, file, err);
    } finally {
      removeQuietly(temp);
    }
  }
}

function writeAll(fd: number, content: string): void {
  const bytes = Buffer.from(content);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * ENOENT while the directory exists means our temp file was removed by a holder's cleanup; EEXIST on
 * the temp file itself, a (vanishingly unlikely) name clash. Both deserve another try.
 */
function retryable(target: string, file: string, err: unknown): boolean {
  if (errnoCode(err) === 'EEXIST') return true;
  if (errnoCode(err) !== 'ENOENT') return false;
  const dir = dirname(file);
  try {
    return statSync(dir).isDirectory();
  } catch {
    throw new NotFoundError(target, `cannot lock: the directory ${dir} does not exist`, { cause: err });
  }
}

function linkError(target: string, file: string, err: unknown): Error {
  const code = errnoCode(err);
  if (code === 'ENOENT') return new NotFoundError(target, `cannot lock: the directory ${dirname(file)} does not exist`, { cause: err });
  if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EMLINK' || code === 'EXDEV') {
    return new IoError(target, `cannot lock: the file system of ${dirname(file)} does not support hard links (${code})`, err);
  }
  if (code === 'EACCES' || code === 'EROFS') return new IoError(target, `cannot lock: no permission to create ${file} (${code})`, err);
  if (code === 'ENOTDIR') return new NotFoundError(target, `cannot lock: ${dirname(file)} is not a directory`, { cause: err });
  return new IoError(target, `cannot lock: ${(err as Error).message}`, err);
}

/** Replace an existing lock file we hold (a lease renewal): temp file, then rename over it. */
export function replaceFile(target: string, file: string, content: string): void {
  const temp = tempPathFor(file);
  try {
    const fd = openSync(temp, 'wx');
    try {
      writeAll(fd, content);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    removeQuietly(temp);
    throw new IoError(target, `cannot renew the lock ${file}: ${(err as Error).message}`, err);
  }
}

export function removeFile(target: string, file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw new IoError(target, `cannot remove ${file}: ${(err as Error).message}`, err);
  }
}

export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or not ours to worry about: cleanup is best effort.
  }
}

/** The holder recorded in `file`, undefined if the file does not exist, LockCorruptError if it is not holder metadata. */
export function readHolder(target: string, file: string): LockHolder | undefined {
  let text: string;
  try {
    text = readSmall(file);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') return undefined;
    if (code === undefined) throw new LockCorruptError(target, file, (err as Error).message);
    throw new IoError(target, `cannot read ${file}: ${(err as Error).message}`, err);
  }
  let value: unknown;
  try {
    value = parseJson(text, { path: file });
  } catch (err) {
    throw new LockCorruptError(target, file, err instanceof StoreError ? `${err.reason}${err.line === undefined ? '' : ` at line ${err.line}`}` : String(err));
  }
  const problem = holderProblem(value);
  if (problem !== undefined) throw new LockCorruptError(target, file, problem);
  return value as LockHolder;
}

/** A lock or guard file's text; errors without an errno code mean "not a lock file". */
function readSmall(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error('not a regular file');
    if (stats.size > MAX_LOCK_FILE_BYTES) throw new Error(`larger than ${MAX_LOCK_FILE_BYTES} bytes`);
    const bytes = Buffer.allocUnsafe(stats.size);
    let length = 0;
    while (length < bytes.length) {
      const read = readSync(fd, bytes, length, bytes.length - length, length);
      if (read === 0) break;
      length += read;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length));
    } catch {
      throw new Error('not UTF-8 text');
    }
  } finally {
    closeSync(fd);
  }
}

export function readHolderQuietly(target: string, file: string): LockHolder | undefined {
  try {
    return readHolder(target, file);
  } catch {
    return undefined;
  }
}

function holderProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const h = value as Record<string, unknown>;
  if (typeof h.pid !== 'number' || !Number.isSafeInteger(h.pid) || h.pid <= 0) return '"pid" must be a positive integer';
  if (typeof h.host !== 'string' || h.host === '') return '"host" must be a non-empty string';
  if (typeof h.time !== 'string' || Number.isNaN(Date.parse(h.time))) return '"time" must be an ISO date';
  if (typeof h.token !== 'string' || !TOKEN.test(h.token)) return '"token" must be 1-128 letters, digits, "_" or "-"';
  if (h.pidStart !== undefined && typeof h.pidStart !== 'string') return '"pidStart" must be a string';
  if (h.detached !== undefined && typeof h.detached !== 'boolean') return '"detached" must be a boolean';
  if (h.expires !== undefined && (typeof h.expires !== 'string' || Number.isNaN(Date.parse(h.expires)))) return '"expires" must be an ISO date';
  if (h.leaseUntil !== undefined && (typeof h.leaseUntil !== 'string' || Number.isNaN(Date.parse(h.leaseUntil)))) return '"leaseUntil" must be an ISO date';
  return undefined;
}
