/**
 * `@ratchet/flows/session-view`: reading flow sessions without the engine. The hooks load this on
 * every tool call (the reasoning gate), so it imports only the session file's hand-written validator
 * and `@ratchet/store`; the main entry pulls the flow parser, fsm-core and the runner.
 */
import { openSession } from './session-file.js';
import type { SessionState } from './types.js';

export { SESSIONS_DIR, openSession, sessionPath } from './session-file.js';
export { FINISHED_STATUSES, type Handoff, type SessionState, type SessionStatus } from './types.js';

/**
 * A session as its file holds it (validated, digest checked); undefined when it was never started.
 * Throws the store's errors for a file that cannot be read (tampered, malformed).
 */
export function readSessionSync(root: string, sessionId: string): SessionState | undefined {
  const state = openSession(root, sessionId).readSync();
  return state.revision === 0 ? undefined : state;
}

/**
 * Where a finished session's handoff stands: `none` (it hands over to nothing, or is not finished),
 * `declined` (the user said no), `started` (the session it names exists, of the flow it names), or
 * `pending` (the work it was routed to has not begun). `read`: how the routed session is read (a
 * caller reading many sessions passes a memo, so a session is read once).
 */
export function handoffStatus(root: string, state: SessionState, read: (root: string, sessionId: string) => SessionState | undefined = readSessionSync): 'none' | 'pending' | 'started' | 'declined' {
  const handoff = state.handoff;
  if (handoff === undefined) return 'none';
  if (handoff.declined !== undefined) return 'declined';
  const routed = read(root, handoff.session);
  return routed !== undefined && routed.flow.id === handoff.flow ? 'started' : 'pending';
}
