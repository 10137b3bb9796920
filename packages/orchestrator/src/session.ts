/**
 * The session document: one JSON file per task, written through @ratchet/store (locked, atomic,
 * validated, versioned), so the lifecycle and the plan stack survive process restarts. A file with
 * a newer schemaVersion is refused by the store (SchemaVersionError) and never rewritten.
 */
import { defineDocument, openDocument, type DocumentDefinition, type DocumentOptions } from '@ratchet/store';
import { createSession } from './lifecycle.js';
import type { Clock, Session } from './types.js';
import { SESSION_SCHEMA_URL } from './urls.js';
import { SESSION_SCHEMA_VERSION } from './session-view.js';
import { sessionValidator } from './validate.js';

export { SESSION_SCHEMA_VERSION } from './session-view.js';

/** The store definition for a session file; `initial` is what a missing file reads as. */
export function sessionDocument(initial: Session): DocumentDefinition<Session> {
  return defineDocument<Session>({ schema: sessionValidator, version: SESSION_SCHEMA_VERSION, $schema: SESSION_SCHEMA_URL, initial });
}

export interface SessionFile {
  /** Absolute path of the file. */
  readonly path: string;
  /** The stored session, or a fresh one at START when the file does not exist yet. */
  read(): Promise<Session>;
  /** `read`, synchronously (read-only CLI commands: `run next`, `run status`). */
  readSync(): Session;
  /** Locked read-modify-write: `fn` gets the stored session and returns the next one (pure functions of this package fit). */
  update(fn: (session: Session) => Session): Promise<Session>;
}

export interface OpenSessionOptions extends Clock, DocumentOptions {
  /** The task id for a new session (when the file does not exist). */
  taskId: string;
}

/**
 * Open (not create: nothing is written until `update`) the session file at `path`. The clock is read
 * once here, for the timestamps of the fresh session a missing file stands for.
 */
export function openSession(path: string, options: OpenSessionOptions): SessionFile {
  const { taskId, now, ...storeOptions } = options;
  const doc = openDocument(path, sessionDocument(createSession(taskId, { now })), storeOptions);
  return {
    path: doc.path,
    read: () => doc.read(),
    readSync: () => doc.readSync(),
    update: (fn) => doc.update((current) => fn(current)),
  };
}
