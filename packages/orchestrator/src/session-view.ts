/**
 * `@ratchet/orchestrator/session-view`: read a task session and what it implies (its current step,
 * the directive) without the lifecycle machine, the plan parser or fsm-core. The hooks read the
 * session on every tool call; this entry keeps that read to a few kilobytes of code. The same
 * validator and schema version as `openSession`, so both refuse the same files.
 */
import { NotFoundError, defineDocument, openDocument } from '@ratchet/store';
import type { Session } from './types.js';
import { SESSION_SCHEMA_URL } from './urls.js';
import { sessionValidator } from './validate.js';

export const SESSION_SCHEMA_VERSION = 1;
const NO_FILE = '1970-01-01T00:00:00.000Z';

const viewDocument = defineDocument<Session>({
  schema: sessionValidator,
  version: SESSION_SCHEMA_VERSION,
  $schema: SESSION_SCHEMA_URL,
  // Never returned: a missing file reads as undefined below (this value marks "no file").
  initial: { taskId: 'none', state: 'START', stack: [], history: [], createdAt: NO_FILE, updatedAt: NO_FILE },
});

/** The session stored at `path`, or undefined when there is none. Throws the store's errors for a file it refuses. */
export function readSessionSync(path: string): Session | undefined {
  try {
    const doc = openDocument(path, viewDocument);
    // The document reads a missing file as its initial value; the view wants "no session".
    const session = doc.readSync();
    return session.taskId === 'none' && session.createdAt === NO_FILE && session.history.length === 0 ? undefined : session;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export { currentStep, type CurrentStep } from './current-step.js';
export { nextDirective, type Directive } from './directive.js';
export { ACTIVITY_LOG_PATH, type ActivityEntry, type ActivityInput, type ActivityStatus } from './activity-log.js';
export { activityEntryValidator, sessionValidator } from './validate.js';
export type { Session } from './types.js';
