/**
 * The activity log (logs/activity.log.jsonl): one JSON object per line with the seed's
 * LOGGING_SCHEMA fields, appended through @ratchet/store (locked, atomic; a file with a bad line is
 * refused rather than appended to). The JSON Schema is schemas/activity-log-entry.schema.json.
 */
import { StoreError, ValidationError, assertKey, openJsonl, parseJson, sharedBackendOf, toJsonPointer, type JsonlFile, type Lease, type StorageBackend, type StoredJsonValue, type WriterOptions } from '@ratchet/store';
import type { z } from 'zod';
import { currentStep } from './current-step.js';
import type { ActivityEntrySchema } from './schema.js';
import type { Clock, Session } from './types.js';
import { activityEntryValidator } from './validate.js';

export const ACTIVITY_LOG_PATH = 'logs/activity.log.jsonl';

/**
 * One line of logs/activity.log.jsonl (the seed's LOGGING_SCHEMA fields), typed from its zod schema
 * (schema.ts): `actor` says who made the entry and through which channel.
 */
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;
export type ActivityStatus = ActivityEntry['outcome']['status'];
/** Who acted and how: the channel, the pinned role, the harness's tool-call id. */
export type ActivityActor = NonNullable<ActivityEntry['actor']>;

export interface ActivityInput {
  /** TASK_START, PLAN_ACCEPTED, STEP_COMPLETE, ... */
  type: string;
  status: ActivityStatus;
  message: string;
  details?: Record<string, unknown>;
  /** The lifecycle state the action happened in (default: the session's state). */
  phase?: string;
  /** Who acted, when the caller knows (the CLI always says). */
  actor?: ActivityActor;
}

/** An entry for `session` (its task, session id, and current plan step). Ids come from randomUUID unless given. */
export function activityEntry(session: Session, input: ActivityInput, options: Clock & { logId?: string }): ActivityEntry {
  return {
    log_id: options.logId ?? crypto.randomUUID(),
    session_id: session.sessionId ?? session.taskId,
    timestamp: options.now().toISOString(),
    phase: input.phase ?? session.state,
    task: { id: session.taskId, plan_step: currentStep(session)?.index ?? null },
    action: { type: input.type, details: input.details ?? {} },
    outcome: { status: input.status, message: input.message },
    ...(input.actor !== undefined ? { actor: input.actor } : {}),
  };
}

/** The log file at `path` (create-on-append, parent directories included). */
export function openActivityLog(path: string, options: WriterOptions = {}): JsonlFile<ActivityEntry> {
  return openJsonl(path, { createParentDirs: true, ...options, schema: activityEntryValidator });
}

export interface ActivityLogStoreOptions extends WriterOptions {
  /**
   * A shared storage backend (PostgreSQL, for several machines): the log is the port's log `key`
   * there (its project-relative path, `logs/activity.log.jsonl`), appended with `logs.append` and
   * read with `logs.read`. Without one, or on the file backend, the JSON Lines file at `path`.
   */
  backend?: StorageBackend | undefined;
  key?: string | undefined;
  /** Shared backend: how long `appendOnce` waits for another `appendOnce` on the same log (default 30 s). */
  waitMs?: number | undefined;
}

/** The activity log wherever the project keeps it: the file, or a log on a shared backend. */
export interface ActivityLogStore {
  /** The file's path, or `<backend location>#<key>`: what errors name. */
  readonly path: string;
  /** Every entry, oldest first, each validated. */
  read(): Promise<ActivityEntry[]>;
  /** Validates and appends, all or none, at a cost independent of the log's length. */
  append(entries: readonly ActivityEntry[]): Promise<void>;
  /**
   * Appends `entry` unless `seen(entries so far)` says it is already there; two `appendOnce` racing
   * with the same check append it exactly once. Returns whether it appended.
   */
  appendOnce(entry: ActivityEntry, seen: (entries: readonly ActivityEntry[]) => boolean): Promise<boolean>;
}

/** A held lease is renewed or released within this; a crashed holder's lease lets others in after it. */
const APPEND_ONCE_LEASE_MS = 30_000;
const READ_PAGE = 1_000;

/** Open the activity log at `path` (files), or `key` on a shared backend. */
export function openActivityLogStore(path: string, options: ActivityLogStoreOptions = {}): ActivityLogStore {
  const { backend, key, waitMs, ...writer } = options;
  const shared = sharedBackendOf(backend);
  if (shared !== undefined) {
    if (key === undefined) throw new TypeError('an activity log on a shared backend needs its key (e.g. "logs/activity.log.jsonl")');
    return sharedActivityLog(shared, key, waitMs ?? 30_000);
  }
  const file = openActivityLog(path, writer);
  return {
    path: file.path,
    read: () => file.read(),
    append: (entries) => file.appendFast(entries),
    async appendOnce(entry, seen) {
      let appended = false;
      // One locked read-modify-write of the file: the check and the append cannot interleave.
      await file.rewrite((entries) => {
        if (seen(entries)) return entries;
        appended = true;
        return [...entries, entry];
      });
      return appended;
    },
  };
}

function sharedActivityLog(backend: StorageBackend, key: string, waitMs: number): ActivityLogStore {
  assertKey(backend.location, key);
  const where = `${backend.location}#${key}`;
  const check = (value: unknown, source: 'file' | 'update', context: string): ActivityEntry => {
    const result = activityEntryValidator.safeParse(value);
    if (result.success) return result.data;
    throw new ValidationError(where, result.error.issues.map((i) => ({ pointer: toJsonPointer(i.path), message: i.message, ...(i.code === undefined ? {} : { code: i.code }) })), source, context);
  };
  const read = async (): Promise<ActivityEntry[]> => {
    const out: ActivityEntry[] = [];
    for (let after = 0; ; ) {
      const page = await backend.logs.read(key, { after, limit: READ_PAGE });
      for (const e of page) out.push(check(e.record, 'file', ` (record ${e.seq})`));
      if (page.length < READ_PAGE) return out;
      after = page[page.length - 1]!.seq;
    }
  };
  const append = async (entries: readonly ActivityEntry[]): Promise<void> => {
    if (entries.length === 0) return;
    // Validated before anything is sent: a bad entry appends nothing.
    const records = entries.map((e, i) => check(e, 'update', ` (record ${i})`) as unknown as StoredJsonValue);
    await backend.logs.append(key, records);
  };
  return {
    path: where,
    read,
    append,
    async appendOnce(entry, seen) {
      // Logs have no conditional append: a leased lock on the log serialises the check-then-append
      // of every appendOnce caller on any machine (plain appends go on meanwhile, and are not what
      // the check looks for).
      const lease = await acquire(backend, `activity/${key}`, where, waitMs);
      try {
        if (seen(await read())) return false;
        await append([entry]);
        return true;
      } finally {
        await backend.locks.release(lease);
      }
    },
  };
}

async function acquire(backend: StorageBackend, name: string, where: string, waitMs: number): Promise<Lease> {
  const owner = `activity-log:${process.pid}:${crypto.randomUUID()}`;
  const deadline = Date.now() + waitMs;
  for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
    const lease = await backend.locks.tryAcquire(name, owner, APPEND_ONCE_LEASE_MS);
    if (lease !== undefined) return lease;
    if (Date.now() >= deadline) {
      const holder = await backend.locks.holder(name);
      throw new StoreError('lock-timeout', where, `timed out after ${waitMs} ms waiting for the lock ${name}${holder === undefined ? '' : `, held by ${holder.owner} until ${holder.leaseUntil}`}`);
    }
    await new Promise((done) => setTimeout(done, pause));
  }
}

/**
 * Every line of an existing activity log that is not one JSON object, with its line number: the
 * log a project kept before Ratchet (the original's own LOGGING_SCHEMA: `evidence_citation`,
 * `plan_step: -1`, sometimes two objects on one line) is history to keep, not a reason to stop a
 * task. The CLI warns with file:line and appends after it (`appendFast` never rewrites old lines).
 */
export function scanActivityLog(text: string, path = ACTIVITY_LOG_PATH): { entries: number; problems: { line: number; message: string }[] } {
  const problems: { line: number; message: string }[] = [];
  let entries = 0;
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/\r$/, '');
      if (line.trim() === '') return;
      try {
        const value = parseJson(line, { path, firstLine: i + 1 });
        if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push({ line: i + 1, message: 'not a JSON object' });
        else entries++;
      } catch (err) {
        const e = err as { reason?: string; column?: number; message: string };
        problems.push({ line: i + 1, message: `${e.reason ?? e.message}${e.column !== undefined ? ` (column ${e.column})` : ''}` });
      }
    });
  return { entries, problems };
}
