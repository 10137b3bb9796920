/**
 * Logs on the file backend: the log with key K is the JSON Lines file `<root>/K`, one record per
 * line, its seq the record's number in the file (blank lines are not records). An append takes the
 * file's lock, cuts a torn tail (bytes after the last newline, left by a writer killed mid-write,
 * never acknowledged, so never a record), writes every new line in one `write` and fsyncs: records
 * are validated before anything is written, so a batch is appended whole or not at all.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { IoError, NotFoundError } from '../errors.js';
import { parseJson } from '../json-parse.js';
import { lockedUpdate } from '../locked-update.js';
import { readTextFileSync } from '../read-file.js';
import { assertJsonValue } from '../port/json-value.js';
import { assertLogKey } from '../port/keys.js';
import type { JsonValue, LogEntry, LogStore } from '../port/storage-port.js';
import { LOCKS_DIR, QUEUES_DIR, type FileContext } from './context.js';
import { listKeys } from './walk.js';

export function fileLogs(ctx: FileContext): LogStore {
  return {
    async append(key, records) {
      assertLogKey(ctx.location, key);
      const path = ctx.pathOf(key);
      if (!Array.isArray(records)) throw new TypeError('append: records must be an array');
      const lines: string[] = [];
      for (const [index, record] of records.entries()) {
        assertJsonValue(ctx.where(key), record, [index]);
        lines.push(JSON.stringify(record));
      }
      return lockedUpdate(path, { root: ctx.root, createParentDirs: true, lock: ctx.lock }, async (beforeRename) => {
        await beforeRename();
        return appendLines(path, lines, ctx.maxLogBytes);
      });
    },
    read(key, options = {}) {
      try {
        const after = options.after ?? 0;
        const limit = options.limit ?? Infinity;
        if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`after must be an integer >= 0, got ${String(after)}`);
        if (limit !== Infinity && (!Number.isSafeInteger(limit) || limit < 0)) throw new RangeError(`limit must be an integer >= 0, got ${String(limit)}`);
        assertLogKey(ctx.location, key);
        return Promise.resolve(readEntries(ctx, ctx.pathOf(key), after, limit));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
    list(prefix = '') {
      try {
        // Non-empty files that are not documents (no digest record) nor the store's own bookkeeping.
        return Promise.resolve(
          listKeys(ctx, prefix, (key, name, siblings) => !siblings.has(`${name}.digest`) && isLogName(name) && hasRecord(ctx, key), [QUEUES_DIR, LOCKS_DIR]),
        );
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

/** Logs are `.jsonl` files (see assertLogKey): a user's `plan.json` is never taken for one. */
function isLogName(name: string): boolean {
  return name.endsWith('.jsonl') && !(name.startsWith('.') && name.endsWith('.tmp'));
}

function hasRecord(ctx: FileContext, key: string): boolean {
  try {
    return readEntries(ctx, ctx.pathOf(key), 0, 1).length > 0;
  } catch {
    return false;
  }
}

function readEntries(ctx: FileContext, path: string, after: number, limit: number): LogEntry[] {
  let text: string;
  try {
    text = readTextFileSync(path, { maxBytes: ctx.maxLogBytes }).text;
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
  const entries: LogEntry[] = [];
  let seq = 0;
  let line = 0;
  let start = 0;
  // Only complete lines: a tail without a newline is a torn append, never acknowledged.
  for (let end = text.indexOf('\n'); end !== -1 && entries.length < limit; start = end + 1, end = text.indexOf('\n', start)) {
    line++;
    const body = text.slice(start, text[end - 1] === '\r' ? end - 1 : end);
    if (/^[ \t]*$/u.test(body)) continue;
    seq++;
    if (seq <= after) continue;
    entries.push({ seq, record: parseJson(body, { path, firstLine: line }) as JsonValue });
  }
  return entries;
}

/** Under the lock: cut a torn tail, count the records, append `lines` in one write, fsync. Returns the first new seq. */
function appendLines(path: string, lines: readonly string[], maxBytes: number): number {
  let fd: number;
  try {
    fd = openSync(path, 'a+');
  } catch (err) {
    throw new IoError(path, `cannot open the log: ${(err as Error).message}`, err);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) throw new IoError(path, `the log is larger than ${maxBytes} bytes; rotate it`);
    const bytes = Buffer.allocUnsafe(size);
    for (let done = 0; done < size; ) {
      const read = readSync(fd, bytes, done, size - done, done);
      if (read === 0) break;
      done += read;
    }
    const complete = bytes.lastIndexOf(0x0a) + 1;
    if (complete < size) ftruncateSync(fd, complete);
    const records = countRecords(bytes.subarray(0, complete));
    if (lines.length > 0) {
      const out = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      for (let done = 0; done < out.length; ) done += writeSync(fd, out, done, out.length - done);
      fsyncSync(fd);
    }
    return records + 1;
  } catch (err) {
    if (err instanceof IoError) throw err;
    throw new IoError(path, `cannot append to the log: ${(err as Error).message}`, err);
  } finally {
    closeSync(fd);
  }
}

/**
 * Non-blank lines (a blank line holds only spaces, tabs or a CR). Newlines are found with the native
 * `indexOf`, and a line is inspected only until its first non-blank byte (its first byte, for every
 * record this backend writes): an append on a large log (the activity log) must not pay a
 * JavaScript loop over every byte.
 */
function countRecords(bytes: Buffer): number {
  let count = 0;
  for (let start = 0, end = bytes.indexOf(0x0a); end !== -1; start = end + 1, end = bytes.indexOf(0x0a, start)) {
    if (!isBlank(bytes, start, end)) count++;
  }
  return count;
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}
