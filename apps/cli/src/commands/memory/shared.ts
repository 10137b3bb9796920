/** Helpers the memory commands share: the file, the clock, number options, library errors -> CLI errors. */
import { MemoryError, openMemory, type MemoryData } from '@ratchet/memory';
import { OutsideRootError, resolveInsideRoot, type Document, type DocumentOptions } from '@ratchet/store';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { numberFrom } from '../../option-values.js';
import { displayPath } from '../../paths.js';
import { sharedStorageOf, storageKey } from '../../storage.js';

export const DEFAULT_FILE = '.ratchet/memory.json';

/** The memory file (`--file`, default .ratchet/memory.json): inside the project (--cwd), symbolic links followed, or refused (exit 2). */
export function memoryFile(ctx: Context, file: string | undefined, flag = '--file'): { path: string; shown: string } {
  const given = file ?? DEFAULT_FILE;
  let path: string;
  try {
    path = resolveInsideRoot(ctx.cwd, given, { allowAbsolute: true });
  } catch (err) {
    if (!(err instanceof OutsideRootError)) throw err;
    throw new CliError(`${flag} ${given} refused: ${err.reason}`, { code: 'outside-root', file: given });
  }
  return { path, shown: displayPath(ctx, path) };
}

/**
 * The project's memory at `path` (from `memoryFile`): the file, or on a shared backend
 * (RATCHET_STORE=postgres://...) the document at the file's project-relative key there. On files
 * nothing beyond the file is loaded or opened.
 */
export async function projectMemory(ctx: Context, path: string, options: DocumentOptions = {}): Promise<Document<MemoryData>> {
  const backend = await sharedStorageOf(ctx);
  return openMemory(path, backend === undefined ? options : { ...options, backend, key: storageKey(ctx, path) });
}

/** The clock: wall time. (The library takes `now` as a parameter; only the CLI reads it.) */
export function now(): number {
  return Date.now();
}

/**
 * How long one query may spend on `match` regexes before it scores the remaining entries without
 * theirs (each accepted regex is bounded by the guard; this bounds a memory holding hundreds).
 */
export const MATCH_BUDGET = { ms: 200, clock: (): number => performance.now() };

/** A number option's text (`--depth 3`) as a number in its range, or undefined when not given; blank or not a number is the usage error naming `flag`. */
export function numberOption(given: string | undefined, flag: string, range: NumberRange = {}): number | undefined {
  if (given === undefined) return undefined;
  const text = given.trim();
  return checkedNumber(numberFrom(text), text, flag, range);
}

export interface NumberRange {
  min?: number;
  max?: number;
  integer?: boolean;
}

/** `value` (given as `text`) in its range, or the usage error naming the option: the option reader's check, and the typed query's. */
export function checkedNumber(value: number, text: string, flag: string, { min = -Infinity, max = Infinity, integer = false }: NumberRange = {}): number {
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    const range = max === Infinity ? `>= ${min}` : `from ${min} to ${max}`;
    throw new CliError(`${flag} must be ${integer ? 'an integer' : 'a number'} ${range}, got ${JSON.stringify(text)}`, { code: 'bad-option' });
  }
  return value;
}

/** Library refusals become CLI errors naming the memory file (exit 2). */
export async function withMemoryErrors<T>(shown: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof MemoryError) throw new CliError(err.reason, { code: err.code, file: shown });
    throw err;
  }
}

export function truncate(text: string, n = 100): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}
