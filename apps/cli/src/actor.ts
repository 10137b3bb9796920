import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import type { ActivityActor } from '@ratchet/orchestrator';
import type { Context } from './context.js';
import { CliError } from './errors.js';

/**
 * Whether this process runs inside the agent's OS sandbox (Claude Code's, with Ratchet's files
 * read-only to it): the sandbox runtime marks its commands with SANDBOX_RUNTIME=1, and whatever the
 * environment says, a state directory the file system refuses to write (EROFS) is the sandbox's
 * read-only mount. An agent can unset a variable; it cannot make the mount writable.
 */
export function insideAgentSandbox(ctx: Pick<Context, 'cwd' | 'io'>): boolean {
  if (ctx.io.env.SANDBOX_RUNTIME === '1') return true;
  try {
    accessSync(join(ctx.cwd, '.ratchet'), constants.W_OK);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EROFS';
  }
}

/** How the agent reached this command: Ratchet's MCP server (it marks its calls), or not. */
export const viaMcp = (ctx: Pick<Context, 'io'>): boolean => ctx.io.env.RATCHET_VIA === 'mcp';

/**
 * The role the caller is pinned to. The agent: a harness gives its agents RATCHET_ACTOR=agent;
 * Ratchet's MCP tools always act as the agent; anything run inside the agent's sandbox is the agent,
 * whatever its environment claims. A person's own shell has none of these (or RATCHET_ACTOR=user).
 * Commands meant for a person refuse for the agent; a command line alone could claim anything.
 */
export function pinnedActor(ctx: Pick<Context, 'cwd' | 'io'>): 'agent' | 'user' | undefined {
  const pinned = ctx.io.env.RATCHET_ACTOR;
  if (pinned !== undefined && pinned !== 'agent' && pinned !== 'user') {
    throw new CliError(`RATCHET_ACTOR must be "agent" or "user", got ${JSON.stringify(pinned)}`, { code: 'bad-environment' });
  }
  if (viaMcp(ctx) || insideAgentSandbox(ctx)) return 'agent';
  return pinned;
}

/** Why the caller counts as the agent, for a refusal's message. */
export function agentReason(ctx: Context): string {
  if (viaMcp(ctx)) return "it came through Ratchet's MCP tools, which always act as the agent";
  if (insideAgentSandbox(ctx)) return "it runs inside the agent's sandbox";
  return 'this environment sets RATCHET_ACTOR=agent';
}

/**
 * Refuse a command (or option) that only a person may use, when the agent is acting: exit 2, naming
 * why and where the person runs it instead.
 */
export function requireUser(ctx: Context, what: string): void {
  if (pinnedActor(ctx) !== 'agent') return;
  throw new CliError(`${what} is for a person, from their own terminal; refused because ${agentReason(ctx)}`, { code: 'actor-pinned' });
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

/**
 * Who runs this command, for the audit trail (each activity entry carries it): the channel, the role
 * the harness pinned (none: a person's shell that pins nothing), and the tool call's id the MCP
 * server passes on. Never throws: a bad RATCHET_ACTOR is refused by the command itself.
 */
export function actingAs(ctx: Pick<Context, 'cwd' | 'io'>): ActivityActor {
  let role: 'agent' | 'user' | undefined;
  try {
    role = pinnedActor(ctx);
  } catch {
    role = undefined;
  }
  const toolUseId = viaMcp(ctx) ? ctx.io.env.RATCHET_TOOL_USE_ID : undefined;
  return { via: viaMcp(ctx) ? 'mcp' : 'shell', ...(role !== undefined ? { role } : {}), ...(toolUseId !== undefined && toolUseId !== '' ? { tool_use_id: toolUseId } : {}) };
}
