/**
 * The names sessions and flows go by. Kept apart from the engine so that the session file (and the
 * light `@ratchet/flows/session-view` entry the hooks load on every tool call) need nothing else.
 */
import { FlowError } from './errors.js';

/** A flow name: lowercase letters, digits and "-". */
export const FLOW_ID = /^[a-z0-9][a-z0-9-]*$/;

export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkSessionId(id: string): string {
  if (!SESSION_ID.test(id)) throw new FlowError('bad-session-id', `session id ${JSON.stringify(id)} must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit`);
  return id;
}
