/**
 * Replace a file so that every reader, and every crash, sees either the old bytes or the new ones:
 * write a uniquely named temp file beside the target, fsync it, rename it over the target, then
 * fsync the directory so the rename itself survives a power loss (best effort: not every file
 * system lets you open or fsync a directory).
 */
import { closeSync, fsync, mkdirSync, openSync, realpathSync, renameSync, statSync, unlinkSync, write, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { FileTooLargeError, IoError, NotAFileError, NotFoundError, StoreError, errnoCode } from './errors.js';
import { DEFAULT_MAX_BYTES } from './read-file.js';

export interface AtomicWriteOptions {
  /** File mode for a new file (an existing file keeps its mode). Default 0o666 minus the umask. */
  mode?: number;
  /** Create missing parent directories instead of failing with NotFoundError. Default false. */
  createParentDirs?: boolean;
  /**
   * Called after the temp file is written, while its fsync runs, and awaited (with the fsync) before
   * the rename; throwing aborts the write (the store re-checks its lock and writes the digest record
   * here). Whatever it makes durable is on disk, with the new bytes, before the rename. It gets the
   * temp file's path: until the rename, that file exists, and after it, it does not (a digest record
   * names it, so that a crash before the rename can be told from a hand rollback).
   */
  beforeRename?: (temp: string) => Promise<void>;
  /** fsync the directory after the rename. Default true; false when a later write to the same directory does it (a digest record before its data). */
  syncDirectory?: boolean;
  /**
   * The limit the file's readers use (default 16 MiB, `DEFAULT_MAX_BYTES`): content over it is refused
   * before anything is written, since the next read would refuse the file. Pass the reader's limit.
   */
  maxBytes?: number;
}

// Metadata steps (stat, open, close, rename) are synchronous: they take microseconds, less than the
// thread-pool round trip of their async versions. Writing large data and fsync, which can take
// milliseconds, stay asynchronous so a server's event loop is not held up.
/** @internal fsync on the thread pool (see above). */
export const fsyncAsync = promisify(fsync);
const SYNC_WRITE_MAX = 64 * 1024;

/**
 * Temp files are `.<name>.<pid>.<12 hex>.tmp` in the target's directory: unique per writer (never a
 * shared name, unlike steno/lowdb), on the same file system (so rename is atomic), and recognisable
 * so a later lock holder can delete what a killed writer left behind.
 */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomHex(6)}.tmp`);
}

/**
 * `bytes` random bytes as hex, for names and tokens that must not collide (temp files, lock
 * tokens), not for secrets: anyone who can read the lock file sees its token anyway. Math.random
 * (V8 seeds it from the OS per process), not Web Crypto or node:crypto: their first use loads
 * modules that cost 2-8 ms, paid on every hook and CLI call that writes.
 */
export function randomHex(bytes: number): string {
  let out = '';
  while (out.length < bytes * 2) out += Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0');
  return out.slice(0, bytes * 2);
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  // Write through a symlink to the file it points at, rather than replacing the link with a file.
  const path = realTarget(target);
  const dir = dirname(path);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes) throw new FileTooLargeError(target, bytes.length, maxBytes, { write: true });
  let fd: number;
  let temp: string;
  try {
    if (options.createParentDirs === true) mkdirSync(dir, { recursive: true });
    const mode = options.mode ?? existingMode(path);
    temp = tempPathFor(path);
    fd = openSync(temp, 'wx', mode);
  } catch (err) {
    throw dirError(target, dir, err);
  }
  try {
    try {
      await writeAll(fd, bytes);
      // The data's fsync and the caller's step (a digest record with an fsync of its own) run at
      // once: both must be on disk before the rename, neither before the other, and two fsyncs in
      // flight cost one journal commit where one after the other cost two. allSettled, not all: the
      // fd must stay open until its fsync has returned.
      await settleBoth(fsyncAsync(fd), options.beforeRename?.(temp));
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(temp, path);
    } catch (err) {
      throw renameError(target, err);
    }
  } catch (err) {
    removeQuietly(temp);
    if (err instanceof StoreError) throw err;
    throw new IoError(target, `cannot write: ${(err as Error).message}`, err);
  }
  if (options.syncDirectory !== false) await fsyncDirectory(dir);
}

/** Make a rename or unlink in `dir` durable. Errors are ignored: some systems refuse to fsync a directory. */
export async function fsyncDirectory(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    await fsyncAsync(fd);
  } catch {
    // Best effort by design (see above).
  } finally {
    closeSync(fd);
  }
}

/** Wait for both; then throw the first one's error, if any. */
async function settleBoth(a: Promise<unknown>, b: Promise<unknown> | undefined): Promise<void> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
}

/** @internal All of `bytes` at the descriptor's position (the end, for one opened to append). */
export async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const length = bytes.length - done;
    done += length <= SYNC_WRITE_MAX ? writeSync(fd, bytes, done, length) : await writeChunk(fd, bytes, done, length);
  }
}

function writeChunk(fd: number, bytes: Uint8Array, offset: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    write(fd, bytes, offset, length, null, (err, written) => (err === null ? resolve(written) : reject(err)));
  });
}

function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone; nothing else to do.
  }
}

function dirError(path: string, dir: string, err: unknown): Error {
  const code = errnoCode(err);
  if (code === 'ENOENT') return new NotFoundError(path, `cannot create the file: the directory ${dir} does not exist`, { cause: err });
  if (code === 'ENOTDIR') return new NotFoundError(path, `cannot create the file: ${dir} is not a directory`, { cause: err });
  if (code === 'EACCES' || code === 'EPERM') return new IoError(path, `permission denied writing in ${dir}`, err);
  if (code === 'EROFS') return new IoError(path, `read-only file system`, err);
  return new IoError(path, `cannot write: ${(err as Error).message}`, err);
}

function renameError(path: string, err: unknown): Error {
  const code = errnoCode(err);
  if (code === 'EISDIR') return new NotAFileError(path, 'directory');
  return new IoError(path, `cannot replace the file: ${(err as Error).message}`, err);
}
