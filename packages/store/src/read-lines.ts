/**
 * The lines of a text file of any size, read in chunks into a buffer that holds one line at a time:
 * for logs that grow without limit (the activity log passes 16 MiB, the whole-file readers' limit,
 * at about 30,000 tool calls). The guards are those of readTextFileSync, applied line by line: a
 * regular file only (a FIFO would never end), a UTF-16 byte order mark refused and a UTF-8 one
 * stripped, and a line with a NUL byte or invalid UTF-8 reported with its line and column. Such a
 * line, or one longer than `maxLineBytes`, is yielded as an error and reading goes on with the next
 * one, so a checker can list every bad line; a problem with the file itself is thrown.
 */
import { closeSync, readSync } from 'node:fs';
import { FileTooLargeError, IoError, type StoreError } from './errors.js';
import { DEFAULT_MAX_BYTES, decode, openRegularFileSync } from './read-file.js';

export interface ReadLinesOptions {
  /** A longer line is yielded as a FileTooLargeError (its bytes skipped, never buffered). Default 16 MiB. */
  maxLineBytes?: number;
  /** Bytes read at a time. Default 64 KiB. */
  chunkBytes?: number;
}

/** One line (1-based `line`), without its `\n`; a `\r` before it is kept, as JSON parsers treat it as space. */
export type FileLine = { line: number; text: string; error?: undefined } | { line: number; error: StoreError; text?: undefined };

export function* readLinesSync(path: string, options: ReadLinesOptions = {}): Generator<FileLine, void, undefined> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_BYTES;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 0) throw new RangeError(`maxLineBytes must be a non-negative integer, got ${maxLineBytes}`);
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) throw new RangeError(`chunkBytes must be a positive integer, got ${chunkBytes}`);
  const { fd } = openRegularFileSync(path);
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    // The current line's bytes so far (copies: `chunk` is reused), or its size alone once it is over the limit.
    let parts: Buffer[] = [];
    let size = 0;
    let line = 1;
    const finish = (): FileLine => {
      const current = line++;
      const over = size > maxLineBytes;
      const bytes = over ? undefined : Buffer.concat(parts, size);
      parts = [];
      const total = size;
      size = 0;
      if (bytes === undefined) return { line: current, error: new FileTooLargeError(path, total, maxLineBytes, { line: current }) };
      try {
        return { line: current, text: decode(path, bytes, current) };
      } catch (err) {
        return { line: current, error: err as StoreError };
      }
    };
    const add = (bytes: Buffer): void => {
      size += bytes.length;
      if (size <= maxLineBytes) parts.push(Buffer.from(bytes));
      else parts = [];
    };
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (err) {
        throw new IoError(path, `cannot read: ${(err as Error).message}`, err);
      }
      if (n === 0) break;
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, start);
        if (newline === -1 || newline >= n) break;
        add(chunk.subarray(start, newline));
        yield finish();
        start = newline + 1;
      }
      if (start < n) add(chunk.subarray(start, n));
    }
    if (size > 0 || parts.length > 0) yield finish();
  } finally {
    closeSync(fd);
  }
}
