/**
 * Reading and writing a harness's configuration files for `ratchet init --harness`: every path is
 * confined to the project (a directory that is a symbolic link out of it is refused), a file that
 * does not parse is reported with its line and column and never overwritten, and a write happens
 * only when the content changes, atomically.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { JsonParseError, NotFoundError, OutsideRootError, parseJson, readTextFileSync, resolveInsideRoot, writeFileAtomic } from '@ratchet/store';
import { CliError } from '../errors.js';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export type Action = 'created' | 'updated' | 'unchanged' | 'would-create' | 'would-update' | 'kept';

export interface FileChange {
  /** Project-relative, `/`-separated. */
  path: string;
  action: Action;
  /** What Ratchet added or why it left the file alone. */
  what: string;
}

/** The file's absolute path, refused when it leads out of the project. */
export function projectFile(root: string, rel: string): string {
  try {
    return resolveInsideRoot(root, rel);
  } catch (err) {
    if (err instanceof OutsideRootError) throw new CliError(`${rel}: ${err.reason}; Ratchet writes a harness's configuration only inside the project`, { file: rel, code: 'outside-root' });
    throw err;
  }
}

/** The file's text, or undefined when it does not exist. */
export function readText(root: string, rel: string): string | undefined {
  try {
    return readTextFileSync(projectFile(root, rel), { maxBytes: 4 * 1024 * 1024 }).text;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** A JSON object file, or undefined when it does not exist; one that does not parse is an error naming its place. */
export function readJsonObject(root: string, rel: string): { text: string | undefined; value: Json } {
  const text = readText(root, rel);
  if (text === undefined || text.trim() === '') return { text, value: {} };
  let value: unknown;
  try {
    value = parseJson(text, { path: join(root, rel) });
  } catch (err) {
    if (err instanceof JsonParseError) throw new CliError(`${rel}:${err.line}:${err.column}: ${err.reason}; left as it is`, { file: rel, line: err.line, column: err.column, code: 'bad-settings' });
    throw err;
  }
  if (!isObject(value)) throw new CliError(`${rel}: expected a JSON object; left as it is`, { file: rel, code: 'bad-settings' });
  return { text, value };
}

/** Write `after` unless it equals `before`; the change as reported. */
export async function writeChange(root: string, rel: string, before: string | undefined, after: string, dryRun: boolean, what: string): Promise<FileChange> {
  if (before === after) return { path: rel, action: 'unchanged', what: 'already up to date' };
  const action: Action = before === undefined ? (dryRun ? 'would-create' : 'created') : dryRun ? 'would-update' : 'updated';
  if (!dryRun) await writeFileAtomic(projectFile(root, rel), after, { createParentDirs: true });
  return { path: rel, action, what };
}

export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Whether the project has its own install of `bin` (node_modules/.bin), which hook commands then call. */
export function localBin(root: string, bin: string): boolean {
  return existsSync(join(root, 'node_modules', '.bin', bin));
}
