/**
 * The trust boundary at the command line (DESIGN.md principle 11). Inside the agent's sandbox
 * Ratchet's files are read-only to the agent's shell, so a command that changes Ratchet's state
 * could only fail half-way: it is refused up front (exit 2), naming the MCP tool through which the
 * agent does it. A person's decisions (`user` commands) are refused for the agent on every channel.
 */
import { insideAgentSandbox, requireUser } from './actor.js';
import { effectOf } from './command-effects.js';
import type { Context } from './context.js';
import { CliError } from './errors.js';

export function checkBoundary(ctx: Context, command: string, options: Readonly<Record<string, unknown>>): void {
  const { effect, mcp } = effectOf(command, options);
  if (effect === 'read') return;
  if (effect === 'user') {
    requireUser(ctx, `ratchet ${command}`);
    return;
  }
  if (!insideAgentSandbox(ctx)) return;
  const tool = mcp === undefined ? "Ratchet's MCP tools" : `the MCP tool \`${mcp}\` (mcp__ratchet__${mcp})`;
  throw new CliError(
    `ratchet ${command} changes Ratchet's state, which is read-only inside the agent's sandbox: call ${tool} instead (read-only commands such as \`ratchet run status\` keep working here)` +
      (mcp === undefined ? '' : `; if the tool is not offered, ask the user to add it to the server's selection (RATCHET_MCP_TOOLS=core,${mcp} in .mcp.json, or \`all\`)`),
    { code: 'sandboxed' },
  );
}
