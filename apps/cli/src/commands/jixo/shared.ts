import { resolve } from 'node:path';
import { JixoError, fileLog, storedLog, type LogHandle } from '@ratchet/jixo-log';
import { storageKind } from '@ratchet/store';
import { storageKey, storageOf } from '../../storage.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';

/**
 * Refusals of the current state (not bad input): exit 1, so an agent knows to re-triage. A lock
 * timeout is not one: it exits 2, as it does in every other command.
 */
const REFUSALS = new Set(['illegal-transition', 'wrong-runner', 'lock-not-held', 'already-locked', 'unknown-task', 'unknown-clarification']);

export function at(ctx: Context, file: string): string {
  return resolve(ctx.cwd, file);
}

/**
 * The log at `path`: the file on the file backend (the default: nothing changes), else the document
 * of the project's shared backend under the log's project-relative path, so every machine pointed at
 * one database (RATCHET_STORE=postgres://…) commits to one log.
 */
export async function logAt(ctx: Context, path: string): Promise<LogHandle> {
  if (storageKind(ctx.cwd, ctx.io.env) === 'file') return fileLog(path);
  const backend = await storageOf(ctx);
  return storedLog(backend, storageKey(ctx, path));
}

export function now(): string {
  return new Date().toISOString();
}

export function int(name: string, value: unknown, min = 0): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliError(`--${name} must be an integer >= ${min}, got ${String(value)}`);
  return n;
}

/** Map library errors: refusals exit 1, everything about the input exit 2, always naming the file. */
export async function guard<T>(file: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as Error & { code?: unknown; reason?: unknown; path?: unknown; line?: unknown; column?: unknown };
    if (err instanceof JixoError || (err instanceof Error && typeof e.code === 'string' && REFUSALS.has(e.code))) {
      const code = String(e.code);
      const path = typeof e.path === 'string' ? e.path : file;
      if (code === 'parse-error') throw err instanceof JixoError && err.path !== undefined ? err : new CliError(typeof e.reason === 'string' ? e.reason : e.message, { code, file: path, ...(typeof e.line === 'number' ? { line: e.line } : {}), ...(typeof e.column === 'number' ? { column: e.column } : {}) });
      throw new CliError(typeof e.reason === 'string' ? e.reason : e.message, { code, file: path, exitCode: REFUSALS.has(code) ? EXIT_PROBLEMS : EXIT_USAGE, ...(typeof e.line === 'number' ? { line: e.line } : {}) });
    }
    throw err;
  }
}
