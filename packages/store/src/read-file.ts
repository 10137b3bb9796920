/**
 * The guarded reader for every file a user or agent hands Ratchet: size checked before a byte is
 * read (a 100 MB "FSM" must fail at once, not after filling memory), regular files only (a FIFO or
 * device would hang or never end), text only (NUL bytes and invalid UTF-8 are refused with a place),
 * BOM stripped.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { BinaryFileError, FileTooLargeError, IoError, NotAFileError, NotFoundError, errnoCode } from './errors.js';
import { lineColumn, locate, parseJson, type Located } from './json-parse.js';

/** 16 MiB: far above any state or definition file, far below what would hurt memory. */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export interface ReadOptions {
  /** Refuse files larger than this many bytes (checked before reading). Default 16 MiB. */
  maxBytes?: number;
}

export interface TextFile {
  path: string;
  /** Decoded UTF-8 text without a BOM. */
  text: string;
  /** Size in bytes as read. */
  bytes: number;
}

export interface JsonFile extends TextFile {
  value: unknown;
  /** Line and column of a JSON pointer in this file's text (see `locate`). */
  locate(pointer: string): Located | undefined;
}

export async function readTextFile(path: string, options: ReadOptions = {}): Promise<TextFile> {
  const maxBytes = checkedMaxBytes(options);
  let handle: FileHandle;
  try {
    // O_NONBLOCK so that opening a FIFO cannot hang; it has no effect on regular files.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw openError(path, err);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotAFileError(path, kindOf(stats));
    if (stats.size > maxBytes) throw new FileTooLargeError(path, stats.size, maxBytes);
    const buffer = await readAtMost(handle, path, stats.size, maxBytes);
    return { path, text: decode(path, buffer), bytes: buffer.length };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The synchronous twin of `readTextFile`, same guards and errors, for pure cores that pull files
 * through a synchronous host (plan-lint reads sub-plans as it meets `call_plan`).
 */
export function readTextFileSync(path: string, options: ReadOptions = {}): TextFile {
  const maxBytes = checkedMaxBytes(options);
  const { fd, stats } = openRegularFileSync(path);
  try {
    if (stats.size > maxBytes) throw new FileTooLargeError(path, stats.size, maxBytes);
    let buffer: Buffer;
    try {
      buffer = readFileSync(fd);
    } catch (err) {
      throw new IoError(path, `cannot read: ${(err as Error).message}`, err);
    }
    // The file may have grown since the stat.
    if (buffer.length > maxBytes) throw new FileTooLargeError(path, buffer.length, maxBytes);
    return { path, text: decode(path, buffer), bytes: buffer.length };
  } finally {
    closeSync(fd);
  }
}

/** `readTextFile` + `parseJson`, with a `locate` bound to the file's text for schema diagnostics. */
export async function readJsonFile(path: string, options: ReadOptions = {}): Promise<JsonFile> {
  const file = await readTextFile(path, options);
  return withJson(file);
}

/**
 * `readTextFileSync` + `parseJson`: the CLI reads its small inputs synchronously, which spares the
 * start-up cost of the FileHandle machinery on every agent call (about 5 ms here).
 */
export function readJsonFileSync(path: string, options: ReadOptions = {}): JsonFile {
  const file = readTextFileSync(path, options);
  return withJson(file);
}

function checkedMaxBytes(options: ReadOptions): number {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
  return maxBytes;
}

/** A text file parsed as JSON, with `locate` bound to its text for schema diagnostics. */
function withJson(file: TextFile): JsonFile {
  const value = parseJson(file.text, { path: file.path });
  return { ...file, value, locate: (pointer: string) => locate(file.text, pointer) };
}

/**
 * @internal `path` opened for reading, or the store's error: O_NONBLOCK so that opening a FIFO
 * cannot hang (it has no effect on regular files), and anything but a regular file refused (closed
 * again) with NotAFileError. The caller closes the descriptor.
 */
export function openRegularFileSync(path: string): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw openError(path, err);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotAFileError(path, kindOf(stats));
    return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** What a file is when it is not a regular file, for NotAFileError. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return 'special file';
}

export function openError(path: string, err: unknown): Error {
  const code = errnoCode(err);
  if (code === 'ENOENT') return new NotFoundError(path, 'no such file', { cause: err });
  if (code === 'ENOTDIR') return new NotFoundError(path, 'no such file (a component of the path is not a directory)', { cause: err });
  if (code === 'EACCES' || code === 'EPERM') return new IoError(path, 'permission denied', err);
  return new IoError(path, `cannot open: ${(err as Error).message}`, err);
}

async function readAtMost(handle: FileHandle, path: string, size: number, maxBytes: number): Promise<Buffer> {
  // The file may grow between stat and read; read at most one byte past the limit to notice.
  const limit = maxBytes + 1;
  // One byte more than the stat size, so that the usual single read already sees the end.
  let buffer = Buffer.allocUnsafe(Math.min(size + 1, limit));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length >= limit) break;
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const wanted = buffer.length - length;
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(buffer, length, wanted, null));
    } catch (err) {
      throw new IoError(path, `cannot read: ${(err as Error).message}`, err);
    }
    length += bytesRead;
    // A regular file returns less than asked only at its end: no need for one more read to see 0.
    if (bytesRead < wanted) break;
  }
  if (length > maxBytes) throw new FileTooLargeError(path, length, maxBytes);
  return buffer.subarray(0, length);
}

/**
 * @internal `buffer` as text, or BinaryFileError with the place of the first bad byte. `firstLine` is
 * the line `buffer` starts at in its file: a byte order mark is only looked for at line 1.
 */
export function decode(path: string, buffer: Buffer, firstLine = 1): string {
  if (firstLine === 1 && buffer.length >= 2 && ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff))) {
    throw new BinaryFileError(path, 'looks like UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8', { line: 1, column: 1 });
  }
  const nul = buffer.indexOf(0);
  if (nul !== -1) {
    throw new BinaryFileError(path, 'contains a NUL byte: this looks like a binary file, not text', placeOfByte(buffer, nul, firstLine));
  }
  if (!isUtf8(buffer)) {
    const bad = firstInvalidUtf8(buffer);
    throw new BinaryFileError(path, `is not valid UTF-8 text (bad byte 0x${(buffer[bad] ?? 0).toString(16).padStart(2, '0')})`, placeOfByte(buffer, bad, firstLine));
  }
  const bom = firstLine === 1 && buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', bom);
}

function placeOfByte(buffer: Buffer, offset: number, firstLine: number): { line: number; column: number } {
  const before = buffer.toString('utf8', 0, offset);
  return lineColumn(before, before.length, firstLine);
}

/** Offset of the first byte that breaks UTF-8 (only called once `isUtf8` said there is one). */
function firstInvalidUtf8(buffer: Buffer): number {
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i] ?? 0;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const next = buffer[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (next & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return buffer.length;
}

