/**
 * Where traces live: `.ratchet/traces.jsonl`, append-only JSON Lines, one record per turn start,
 * span start, span end, event and turn end. Appends go through @ratchet/store's `appendFast`
 * (locked, O_APPEND, fsync; a torn tail left by a killed writer is cut first), so recording costs
 * the same however long the history is.
 *
 * Rotation by size: when an append would take the file past `rotateBytes`, the file is renamed to
 * the next free `traces.N.jsonl` (traces.1.jsonl is the oldest) and a new one is started. Old files
 * are never rewritten or deleted; a turn whose records straddle a rotation reads whole, because
 * readers walk the files newest first until they reach the turn's start.
 *
 * A second lock (`traces.jsonl.writer.lock`) serialises the whole check-then-append of a recording
 * and the rotation, and readers take it too, so nobody reads between the rename and the new file.
 */
import { readdir, rename, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { NotFoundError, ValidationError, openJsonl, parseJson, readTextFile, resolveInsideRoot, withLock, type JsonlFile, type LockOptions, type SchemaIssue } from '@ratchet/store';
import { parseJsonPointer } from '@ratchet/store';
import { TraceStateError, breachEvent, checkAppend, foldTrace, newBreaches, type BudgetBreach, type LocatedRecord } from './fold.js';
import type { TraceEvent, TraceRecord, TurnTrace } from './types.js';
import { traceRecordIssues } from './validate.js';
import { checkId } from '../tx.js';

export const DEFAULT_TRACE_FILE = '.ratchet/traces.jsonl';
/** Roll over past 8 MiB by default. */
export const DEFAULT_ROTATE_BYTES = 8 * 1024 * 1024;
/** No trace file is read past this (or twice the rotation size, if larger): a bigger one was not written by Ratchet. */
export const TRACE_READ_LIMIT = 16 * 1024 * 1024;

export interface TraceLogOptions {
  rotateBytes?: number | undefined;
  /** The project root the trace files must stay in (symbolic links followed). */
  root?: string | undefined;
  lock?: Omit<LockOptions, 'leaseMs' | 'createParentDirs'> | undefined;
}

/** A record as `record` is given it: events may leave their id to the log (e1, e2, ... in the turn). */
export type NewRecord = Exclude<TraceRecord, { type: 'event' }> | ({ type: 'event'; turn_id: string } & Omit<TraceEvent, 'event_id'> & { event_id?: string | undefined });

export interface RecordResult {
  /** The turn's trace after the records were appended. */
  trace: TurnTrace;
  /** What was appended, budget Policy events included. */
  appended: TraceRecord[];
  /** Budgets this recording went past (each is also a Policy event in `appended`). */
  breaches: BudgetBreach[];
  /** Torn lines skipped while reading. */
  warnings: string[];
  /** The file the current one was rotated to, if this append rotated it. */
  rotated?: string | undefined;
}

export interface TraceRead {
  trace: TurnTrace | undefined;
  warnings: string[];
}

export interface TraceLog {
  readonly path: string;
  /** Every record of every file, oldest first. */
  readAll(): Promise<{ records: LocatedRecord[]; warnings: string[] }>;
  /** The trace of `turnId`, or of the turn started last when it is undefined. */
  read(turnId?: string): Promise<TraceRead>;
  /**
   * One recording, under the writer lock: the turn's trace is read, `make` returns the records to
   * add, each is checked against the trace (refusals throw, nothing is written), Policy events are
   * added for budgets newly gone past, then all are appended. `turnId` undefined: the turn started last.
   * `make` returning no records writes nothing.
   */
  record(turnId: string | undefined, make: (trace: TurnTrace | undefined, turnId: string) => NewRecord[]): Promise<RecordResult>;
}

/** Records of a trace file as the store validates them (the precompiled validator, not zod). */
const recordSchema = {
  safeParse(input: unknown): { success: true; data: TraceRecord } | { success: false; error: { issues: SchemaIssue[] } } {
    const issues = traceRecordIssues(input);
    if (issues.length === 0) return { success: true, data: input as TraceRecord };
    return { success: false, error: { issues: issues.map((i) => ({ path: parseJsonPointer(i.pointer) ?? [], message: i.message, code: i.code })) } };
  },
};

/**
 * Parse one trace file's text. Blank lines and CR line ends are fine. A last line without its
 * newline was never acknowledged (a writer died mid-append; the next append cuts it off): skipped
 * with a warning. Any other bad line is an error naming the file and line.
 */
export function parseTraceText(text: string, file: string): { records: LocatedRecord[]; warnings: string[] } {
  const records: LocatedRecord[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  const torn = !text.endsWith('\n') && text !== '';
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^[ \t]*$/u.test(line)) return;
    if (torn && index === lines.length - 1) {
      warnings.push(`${file}:${index + 1}: skipped a torn last line (${line.length} bytes without a newline: a writer stopped mid-append)`);
      return;
    }
    const value = parseJson(line, { path: file, firstLine: index + 1 });
    const issues = traceRecordIssues(value);
    if (issues.length > 0) throw new ValidationError(file, issues.map((i) => ({ ...i, line: index + 1, column: 1 })), 'file', ` (line ${index + 1})`);
    records.push({ record: value as TraceRecord, file, line: index + 1 });
  });
  return { records, warnings };
}

export function openTraceLog(path: string, options: TraceLogOptions = {}): TraceLog {
  const file = resolve(path);
  const rotateBytes = options.rotateBytes ?? DEFAULT_ROTATE_BYTES;
  const readLimit = Math.max(TRACE_READ_LIMIT, 2 * rotateBytes);
  const dir = dirname(file);
  const ext = extname(file);
  const stem = basename(file, ext);
  const rotatedName = new RegExp(`^${escapeRegex(stem)}\\.([1-9][0-9]{0,8})${escapeRegex(ext)}$`);
  const confined = (p: string): string => (options.root === undefined ? p : resolveInsideRoot(options.root, p, { allowAbsolute: true }));
  const jsonl: JsonlFile<TraceRecord> = openJsonl(file, { schema: recordSchema, maxBytes: readLimit, createParentDirs: true, ...(options.root === undefined ? {} : { root: options.root }), ...(options.lock === undefined ? {} : { lock: options.lock }) });

  /** Rotated files, oldest first, as [index, path]. */
  async function rotatedFiles(): Promise<[number, string][]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    return names
      .map((n) => [Number(rotatedName.exec(n)?.[1] ?? NaN), join(dir, n)] as [number, string])
      .filter(([n]) => !Number.isNaN(n))
      .sort((a, b) => a[0] - b[0]);
  }

  async function parseFile(p: string): Promise<{ records: LocatedRecord[]; warnings: string[] }> {
    try {
      return parseTraceText((await readTextFile(confined(p), { maxBytes: readLimit })).text, p);
    } catch (err) {
      if (err instanceof NotFoundError) return { records: [], warnings: [] };
      throw err;
    }
  }

  /** Files newest first until `enough` says the records read so far suffice. */
  async function readBack(enough: (records: readonly LocatedRecord[]) => boolean): Promise<{ records: LocatedRecord[]; warnings: string[] }> {
    const files = [file, ...(await rotatedFiles()).reverse().map(([, p]) => p)];
    let records: LocatedRecord[] = [];
    const warnings: string[] = [];
    for (const p of files) {
      const r = await parseFile(p);
      records = [...r.records, ...records];
      warnings.unshift(...r.warnings);
      if (enough(r.records)) break;
    }
    return { records, warnings };
  }

  const starts = (turnId: string | undefined) => (records: readonly LocatedRecord[]): boolean => records.some((r) => r.record.type === 'turn_start' && (turnId === undefined || r.record.turn_id === turnId));

  async function readTurn(turnId: string | undefined): Promise<TraceRead & { turnId: string | undefined; records: LocatedRecord[] }> {
    if (turnId !== undefined) checkId(turnId, 'turn');
    const { records, warnings } = await readBack(starts(turnId));
    const id = turnId ?? [...records].reverse().find((r) => r.record.type === 'turn_start')?.record.turn_id;
    return { trace: id === undefined ? undefined : foldTrace(records, id), warnings, turnId: id, records };
  }

  /** The writer lock; without the directory there is nothing to lock (and nothing to read). */
  async function locked<T>(fn: () => Promise<T>, create: boolean): Promise<T> {
    if (!create) {
      try {
        await stat(dir);
      } catch {
        return fn();
      }
    }
    confined(file);
    return withLock(`${file}.writer`, fn, { ...options.lock, createParentDirs: create });
  }

  return {
    path: file,
    readAll: () => locked(() => readBack(() => false), false),
    read: (turnId) => locked(async () => {
      const { trace, warnings } = await readTurn(turnId);
      return { trace, warnings };
    }, false),
    record: (turnId, make) =>
      locked(async () => {
        const read = await readTurn(turnId);
        const id = read.turnId ?? turnId;
        if (id === undefined) throw new TraceStateError('no turn has started: run `ratchet turn start <turn>` first');
        const turnRecords = read.records.filter((r) => r.record.turn_id === id);
        let trace = read.trace;
        const appended: TraceRecord[] = [];
        const add = (r: NewRecord): void => {
          const record = (r.type === 'event' && r.event_id === undefined ? { ...r, event_id: `e${(trace?.events.length ?? 0) + 1}` } : r) as TraceRecord;
          appended.push(record);
          trace = foldTrace([...turnRecords, ...appended.map((a) => ({ record: a }))], id);
        };
        for (const r of make(trace, id)) {
          if (r.turn_id !== id) throw new TypeError(`record for turn ${r.turn_id} in a recording of turn ${id}`);
          checkAppend(trace, r as TraceRecord);
          add(r);
        }
        if (trace === undefined) throw new TraceStateError(`turn ${id} has not started: run \`ratchet turn start ${id}\` first`);
        // `make` may decide there is nothing to record (a command recording only into an open turn).
        if (appended.length === 0) return { trace, appended, breaches: [], warnings: read.warnings };
        const last = appended[appended.length - 1]!;
        const breaches = newBreaches(trace);
        // Policy events go before a turn_end, so the closed turn still shows why it went over.
        if (last.type === 'turn_end' && breaches.length > 0) appended.pop();
        for (const b of breaches) add({ type: 'event', turn_id: id, ...breachEvent(trace, b, last.ts) });
        if (last.type === 'turn_end' && breaches.length > 0) add(last);
        const rotated = await rotateIfNeeded(appended);
        await jsonl.appendFast(appended);
        return { trace, appended, breaches, warnings: read.warnings, ...(rotated === undefined ? {} : { rotated }) };
      }, true),
  };

  async function rotateIfNeeded(records: readonly TraceRecord[]): Promise<string | undefined> {
    let size: number;
    try {
      size = (await stat(confined(file))).size;
    } catch {
      return undefined;
    }
    const adding = records.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
    if (size === 0 || size + adding <= rotateBytes) return undefined;
    const last = (await rotatedFiles()).at(-1)?.[0] ?? 0;
    const target = confined(join(dir, `${stem}.${last + 1}${ext}`));
    await rename(file, target);
    return target;
  }
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
