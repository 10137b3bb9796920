import { resolve } from 'node:path';
import { JixoError, fileLog, plannerOf, storedLog, type Diagnostic, type LogFile, type LogHandle } from '@ratchet/jixo-log';
import { pinnedActor } from '../../actor.js';
import { storageKind } from '@ratchet/store';
import { storageKey, storageOf } from '../../storage.js';
import type { Context } from '../../context.js';
import { CliError, type ProblemReport } from '../../errors.js';
import { EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';

/**
 * Refusals of the current state (not bad input): exit 1, so an agent knows to re-triage. A lock
 * timeout is not one: it exits 2, as it does in every other command.
 */
const REFUSALS = new Set(['illegal-transition', 'wrong-runner', 'lock-not-held', 'already-locked', 'unknown-task', 'unknown-clarification', 'not-planner', 'rejected-edit']);

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
    const e = err as Error & { code?: unknown; reason?: unknown; path?: unknown; line?: unknown; column?: unknown; diagnostics?: Diagnostic[] };
    if (err instanceof JixoError || (err instanceof Error && typeof e.code === 'string' && REFUSALS.has(e.code))) {
      const code = String(e.code);
      const path = typeof e.path === 'string' ? e.path : file;
      if (code === 'parse-error') throw err instanceof JixoError && err.path !== undefined ? err : new CliError(typeof e.reason === 'string' ? e.reason : e.message, { code, file: path, ...(typeof e.line === 'number' ? { line: e.line } : {}), ...(typeof e.column === 'number' ? { column: e.column } : {}) });
      // Every problem on its own line (a refused edit has as many as the parse errors it had).
      const problems = Array.isArray(e.diagnostics) ? e.diagnostics.filter((d) => d.severity === 'error').map((d): ProblemReport => ({ message: d.message, file: path, line: d.line, column: d.column })) : undefined;
      // Then what became of it (a refused edit: put back, kept aside).
      if (problems !== undefined && problems.length > 0) problems.push({ message: typeof e.reason === 'string' ? e.reason : e.message, file: path });
      throw new CliError(typeof e.reason === 'string' ? e.reason : e.message, { code, file: path, exitCode: REFUSALS.has(code) ? EXIT_PROBLEMS : EXIT_USAGE, ...(typeof e.line === 'number' ? { line: e.line } : {}), ...(typeof e.column === 'number' ? { column: e.column } : {}), ...(problems !== undefined && problems.length > 0 ? { problems } : {}) });
    }
    throw err;
  }
}

/**
 * A person acts (not an agent): user-only moves and Planner moves are theirs. The environment pins
 * an agent (RATCHET_ACTOR=agent, which `jixo run` and harnesses set); a command line alone cannot.
 */
export function userActs(ctx: Context): boolean {
  return pinnedActor(ctx) !== 'agent';
}

/** Refuse a move meant for a person when the environment pins an agent. */
export function userOnly(ctx: Context, what: string): void {
  if (!userActs(ctx)) throw new CliError(`${what} is refused: this environment sets RATCHET_ACTOR=agent (it is a person's decision, from their own terminal)`, { code: 'actor-pinned', exitCode: EXIT_USAGE });
}

/**
 * Planner moves (add, edit, depends, remove, retry, cancel, unblock, title, a Planner's Work Log
 * entry) are the elected Planner's or the user's. For an agent, returns the check to run on the log
 * read inside the write's lock: its runner must be the elected Planner (triage records it), and it
 * must hold the log lock, so the plan it commits becomes visible to runners as one change, at
 * unlock. Undefined for a person.
 */
export async function plannerGate(ctx: Context, store: LogHandle, runner: string | undefined, file: string): Promise<((log: LogFile) => void) | undefined> {
  if (userActs(ctx)) return undefined;
  const refuse = (message: string): CliError => new CliError(message, { code: 'not-planner', file, exitCode: EXIT_PROBLEMS });
  if (runner === undefined) throw refuse('an agent\'s Planner move names its runner (--runner "$RATCHET_JIXO_RUNNER"): changing the plan is the elected Planner\'s or the user\'s');
  const holder = await store.holder();
  return (log) => {
    const planner = plannerOf(log, Date.now());
    if (planner?.runner !== runner) {
      throw refuse(`${runner} is not the elected Planner (${planner === undefined ? 'nobody is: ratchet jixo triage elects one when a Planner step applies' : `${planner.runner} is, until ${planner.leaseUntil}`}); changing the plan is the elected Planner's or the user's`);
    }
    if (holder !== runner) throw refuse(`the Planner commits its plan under the log lock: run \`ratchet jixo lock ${file} --runner ${runner}\` first; runners see the plan at \`ratchet jixo unlock\`, as one change`);
  };
}
