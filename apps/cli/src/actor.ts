import type { Context } from './context.js';
import { CliError } from './errors.js';

/**
 * The role the environment pins the caller to: a harness gives its agents RATCHET_ACTOR=agent, a
 * person's own shell has none (or RATCHET_ACTOR=user). Commands meant for a person refuse when it
 * says agent; a command line alone could claim anything.
 */
export function pinnedActor(ctx: Context): 'agent' | 'user' | undefined {
  const pinned = ctx.io.env.RATCHET_ACTOR;
  if (pinned !== undefined && pinned !== 'agent' && pinned !== 'user') {
    throw new CliError(`RATCHET_ACTOR must be "agent" or "user", got ${JSON.stringify(pinned)}`, { code: 'bad-environment' });
  }
  return pinned;
}
