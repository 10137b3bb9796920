/**
 * JSON Lines files (one record per line, e.g. lessons.jsonl) with the same guarantees as documents.
 * `append` is a locked rewrite through temp file + rename, not an O_APPEND write: a crash can then
 * never leave a torn last line, and a file with a bad line is refused instead of appended to.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { fsyncAsync, writeAll, writeFileAtomic } from './atomic-write.js';
import { NotFoundError, ValidationError, type ValidationIssue } from './errors.js';
import { parseJson } from './json-parse.js';
import { confined, lockedUpdate, type WriterOptions } from './locked-update.js';
import { readTextFile } from './read-file.js';
import { MAX_ISSUES, toValidationIssues, validate, type Schema } from './validate.js';

export interface JsonlOptions<T> extends WriterOptions {
  /** Schema of one record. */
  schema: Schema<T>;
}

export interface JsonlFile<T> {
  /** Absolute path of the file. */
  readonly path: string;
  /** Every record, validated; [] when the file does not exist. Blank lines are skipped. */
  read(): Promise<T[]>;
  /** Validate `records` and add them at the end, under the lock. Existing lines are kept byte for byte. */
  append(records: readonly T[]): Promise<void>;
  /**
   * `append` at a cost independent of the file's size, for logs written on every agent action: under
   * the lock, a torn tail (bytes after the last newline, left by a writer killed mid-write and never
   * acknowledged) is cut off, then the lines are appended (O_APPEND) and fsynced. Unlike `append` it
   * does not re-read earlier lines; a reader still refuses a file with a bad line, naming it.
   */
  appendFast(records: readonly T[]): Promise<void>;
  /** Locked read-modify-write of all records; `fn` may mutate the array or return a new one. Returns what was written. */
  rewrite(fn: (records: T[]) => T[] | void | Promise<T[] | void>): Promise<T[]>;
}

export function openJsonl<T>(path: string, options: JsonlOptions<T>): JsonlFile<T> {
  const file = resolve(path);
  const { schema } = options;
  if (typeof schema?.safeParse !== 'function') throw new TypeError('openJsonl: schema must have a safeParse method (a zod schema)');
  const readText = async (): Promise<string> => {
    try {
      return (await readTextFile(confined(file, options), options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes })).text;
    } catch (err) {
      if (err instanceof NotFoundError) return '';
      throw err;
    }
  };
  // Appends and rewrites are held to the limit reads use.
  const limit = options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes };
  const serialize = (records: readonly unknown[]): { values: T[]; lines: string[] } => {
    const values = records.map((record, index) => validate(schema, record, { path: file, source: 'update', context: ` (record ${index})` }));
    const lines = values.map((value, index) => {
      const line = JSON.stringify(value);
      if (typeof line !== 'string') throw new TypeError(`openJsonl: record ${index} is not JSON-serialisable`);
      return line;
    });
    return { values, lines };
  };
  return {
    path: file,
    async read() {
      return parseLines(await readText(), schema, file);
    },
    async append(records) {
      if (records.length === 0) return;
      // Validate before taking the lock: a bad record should not make other writers wait.
      const { lines } = serialize(records);
      await lockedUpdate(file, options, async (beforeRename) => {
        const text = await readText();
        parseLines(text, schema, file);
        const separator = text === '' || text.endsWith('\n') ? '' : '\n';
        await writeFileAtomic(file, `${text}${separator}${lines.join('\n')}\n`, { beforeRename, ...limit });
      });
    },
    async appendFast(records) {
      if (records.length === 0) return;
      const { lines } = serialize(records);
      await lockedUpdate(file, options, async (beforeRename) => {
        await beforeRename();
        await appendAfterLastNewline(file, `${lines.join('\n')}\n`);
      });
    },
    async rewrite(fn) {
      return lockedUpdate(file, options, async (beforeRename) => {
        const records = parseLines(await readText(), schema, file);
        const returned = await fn(records);
        const next = returned ?? records;
        const { values, lines } = serialize(next);
        await writeFileAtomic(file, lines.length === 0 ? '' : `${lines.join('\n')}\n`, { beforeRename, ...limit });
        return values;
      });
    },
  };
}

/**
 * Cut a torn tail off `file` (creating it if missing), then append `text` and fsync. On a descriptor,
 * like writeFileAtomic: the FileHandle API loads fs/promises and its dependencies, about 1.5 ms of
 * every hook call that logs (post-tool-use appends to the activity log on each tool call).
 */
async function appendAfterLastNewline(file: string, text: string): Promise<void> {
  const fd = openSync(file, 'a+');
  try {
    const { size } = fstatSync(fd);
    if (size > 0) {
      // Read backwards to the last newline: a tail without one was never acknowledged.
      const chunk = Buffer.alloc(Math.min(size, 64 * 1024));
      let end = size;
      let cut = -1;
      while (end > 0 && cut < 0) {
        const start = Math.max(0, end - chunk.length);
        const bytesRead = readSync(fd, chunk, 0, end - start, start);
        const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
        if (at >= 0) cut = start + at + 1;
        end = start;
      }
      if (cut < 0) cut = 0;
      if (cut < size) ftruncateSync(fd, cut);
    }
    await writeAll(fd, Buffer.from(text, 'utf8'));
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Parse and validate every non-blank line; parse errors and schema issues carry the file's line number. */
function parseLines<T>(text: string, schema: Schema<T>, path: string): T[] {
  const records: T[] = [];
  const issues: ValidationIssue[] = [];
  let lineNumber = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lineNumber++;
    let line = text.slice(start, end);
    start = end + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (/^[ \t]*$/u.test(line)) continue;
    const value = parseJson(line, { path, firstLine: lineNumber });
    const result = schema.safeParse(value);
    if (result.success) records.push(result.data);
    else if (issues.length < MAX_ISSUES) issues.push(...toValidationIssues(result.error.issues, line, lineNumber));
  }
  if (issues.length > 0) throw new ValidationError(path, issues.slice(0, MAX_ISSUES), 'file');
  return records;
}
