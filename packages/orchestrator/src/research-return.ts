/**
 * Where `research done` returns to. Its own module (types only) so the directive, which the hooks
 * load on every tool call, can say it without loading the plan parser and the lifecycle machine.
 */
import type { Session } from './types.js';

/** The state research started in: EXECUTING when it paused a running plan; else (and for sessions from before `from` existed) PLANNING. */
export function returnState(session: Session): 'PLANNING' | 'EXECUTING' {
  return session.research?.from === 'EXECUTING' && session.stack.length > 0 ? 'EXECUTING' : 'PLANNING';
}
