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

const SCOPE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/**
 * The acting agent's access scope for the goals state: `--agent` / `--org`, else RATCHET_AGENT /
 * RATCHET_ORG. As with RATCHET_ACTOR, the environment is what a harness pins its agents with: where
 * it sets RATCHET_AGENT (or RATCHET_ORG), a command line naming another agent (or org) is refused,
 * so an agent cannot act as another by passing its id.
 */
export function actorScope(ctx: Context, options: { agent?: unknown; org?: unknown }): { agent_id?: string; org_id?: string } {
  const one = (flag: string, variable: string, given: unknown): string | undefined => {
    const pinned = ctx.io.env[variable];
    if (pinned !== undefined && pinned !== '' && !SCOPE_ID.test(pinned)) throw new CliError(`${variable} must be an id (letters, digits, "_", ".", ":" or "-"), got ${JSON.stringify(pinned)}`, { code: 'bad-environment' });
    if (given !== undefined && (typeof given !== 'string' || !SCOPE_ID.test(given))) throw new CliError(`${flag} must be an id (letters, digits, "_", ".", ":" or "-"), got ${JSON.stringify(given)}`);
    const env = pinned === '' ? undefined : pinned;
    if (env !== undefined && given !== undefined && given !== env) {
      throw new CliError(`${flag} ${String(given)} is refused: this environment sets ${variable}=${env} (an agent cannot act as another; its harness sets ${variable})`, { code: 'actor-pinned' });
    }
    return given ?? env;
  };
  const agent = one('--agent', 'RATCHET_AGENT', options.agent);
  const org = one('--org', 'RATCHET_ORG', options.org);
  return { ...(agent === undefined ? {} : { agent_id: agent }), ...(org === undefined ? {} : { org_id: org }) };
}
