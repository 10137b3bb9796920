/**
 * What the goals commands share about the turn trace: where it is (`--traces`, default
 * .ratchet/traces.jsonl; rotation size from .ratchet/trace.config.json), which turn a recording
 * goes to (`--turn`, else $RATCHET_TURN, else the turn started last), the mapping of trace errors
 * to exit codes, and `traceAlong`: the best-effort recording other commands (plan steps, commits,
 * proposals) make into the current turn after their own change is written.
 */
import { resolve } from 'node:path';
import { StoreError } from '@ratchet/store';
import {
  DEFAULT_TRACE_CONFIG_FILE,
  DEFAULT_TRACE_FILE,
  GoalsError,
  openTraceLog,
  pinDigest,
  readPinnedRegistry,
  readTraceConfig,
  type NewRecord,
  type RecordResult,
  type Registry,
  type TraceConfig,
  type TraceLog,
  type TurnTrace,
} from '@ratchet/goals';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT_PROBLEMS, EXIT_USAGE } from '../../exit-codes.js';
import { displayPath } from '../../paths.js';
import type { GoalsPlace, TraceLocation } from '../../operations/goals-input.js';
import { mapErrors } from './shared.js';

export async function traceConfigOf(ctx: Context, place: Pick<TraceLocation, 'traceConfig'>): Promise<TraceConfig> {
  return readTraceConfig(resolve(ctx.cwd, place.traceConfig ?? DEFAULT_TRACE_CONFIG_FILE), { root: ctx.cwd });
}

export async function openTraces(ctx: Context, place: Pick<TraceLocation, 'traces' | 'traceConfig'>, config?: TraceConfig): Promise<TraceLog> {
  const c = config ?? (await traceConfigOf(ctx, place));
  return openTraceLog(resolve(ctx.cwd, place.traces ?? DEFAULT_TRACE_FILE), { root: ctx.cwd, rotateBytes: c.rotate_bytes });
}

/** The turn named by --turn or $RATCHET_TURN; undefined: the turn started last. */
export function turnOf(ctx: Context, place: Pick<GoalsPlace, 'turn'>, positional?: string): string | undefined {
  const env = ctx.io.env.RATCHET_TURN;
  return positional ?? place.turn ?? (env === undefined || env === '' ? undefined : env);
}

/**
 * Trace refusals (the history shortcuts) exit 1; a trace file that does not read is an input error
 * naming its file and line (exit 2); the rest as the goals commands map them.
 */
export async function mapTraceErrors<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  return mapErrors(ctx, async () => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof GoalsError && err.code === 'trace-state') throw new CliError(err.reason, { exitCode: EXIT_PROBLEMS, code: err.code });
      if (err instanceof GoalsError && err.path !== undefined) {
        throw new CliError(err.reason, { exitCode: EXIT_USAGE, code: err.code, file: displayPath(ctx, err.path), ...(err.line === undefined ? {} : { line: err.line }) });
      }
      // A trace file's problem, shown with the path as the user would type it: `.ratchet/traces.jsonl:3:10`.
      if (err instanceof StoreError && err.line !== undefined) throw new CliError(err.reason, { exitCode: EXIT_USAGE, code: err.code, file: displayPath(ctx, err.path), line: err.line, ...(err.column === undefined ? {} : { column: err.column }) });
      throw err;
    }
  });
}

/** Torn lines skipped while reading, and budgets gone past: on stderr, so --json stays one document. */
export function noteRecording(ctx: Context, r: { warnings: readonly string[]; breaches?: RecordResult['breaches'] | undefined; appended?: RecordResult['appended'] | undefined; rotated?: string | undefined }): void {
  for (const w of r.warnings) ctx.note(`warning: ${w}`);
  for (const e of r.appended ?? []) if (e.type === 'event' && e.kind === 'Policy' && e.payload?.policy === 'budget') ctx.note(`budget: ${e.summary}`);
  if (r.rotated !== undefined) ctx.note(`traces rotated to ${displayPath(ctx, r.rotated)}`);
}

/**
 * Record into the current turn's trace after another command's change is written: only when the
 * turn is open (a project not using traces, or between turns, records nothing). The change itself
 * is done, so a trace that cannot be written is a warning, not a failure of the command.
 */
export async function traceAlong(ctx: Context, place: GoalsPlace, make: (trace: TurnTrace, turnId: string) => NewRecord[], turn?: string): Promise<void> {
  try {
    const log = await openTraces(ctx, place);
    const id = turn ?? turnOf(ctx, place);
    const { trace } = await log.read(id);
    if (trace === undefined || trace.status !== 'open') return;
    // Decided again inside the lock: the turn may have ended since it was read.
    noteRecording(ctx, await log.record(trace.turn_id, (current, turn) => (current?.status === 'open' ? make(current, turn) : [])));
  } catch (err) {
    ctx.note(`warning: not recorded in the turn trace: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The action-type registry a turn's commit is judged against: the one pinned when the turn started
 * (`ratchet turn start`), so a type merged while it runs is not usable in it; the registry in use now
 * for a turn that was never started. Says so on stderr when the two differ.
 */
export async function turnRegistry(ctx: Context, place: TraceLocation, turnId: unknown, current: Registry): Promise<Registry> {
  if (typeof turnId !== 'string') return current;
  const { trace } = await (await openTraces(ctx, place)).read(turnId);
  if (trace?.registry === undefined) return current;
  const pinned = await readPinnedRegistry(ctx.cwd, trace.registry);
  if ((await pinDigest(current)) !== trace.registry) {
    ctx.note(`turn ${turnId} keeps the action-type registry it started with (${trace.registry.slice(0, 12)}, .ratchet/registry-pins/): changes merged since apply from the next turn`);
  }
  return pinned;
}
