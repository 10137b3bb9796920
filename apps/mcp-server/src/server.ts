/**
 * The MCP server: one registered tool per selected ToolSpec, each running its command in process.
 * The SDK and zod are imported here, when a server is made, not when the tool table is read.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { invokeTool, type InvokeOptions } from './invoke.js';
import type { ToolSpec } from './tool-spec.js';
import { VERSION } from './version.js';

export interface ServerOptions extends InvokeOptions {
  tools: readonly ToolSpec[];
}

export async function createServer(options: ServerOptions): Promise<McpServer> {
  const [{ McpServer: Server }, z] = await Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('zod')]);
  const server = new Server({ name: 'ratchet', version: VERSION });
  const invoke: InvokeOptions = { project: options.project, env: options.env };
  for (const spec of options.tools) {
    // strict: an argument the tool does not define is an input error, not silently ignored.
    server.registerTool(spec.name, { description: spec.description, inputSchema: z.object(spec.shape(z)).strict() }, (args, extra) =>
      invokeTool(spec, args as Record<string, unknown>, { ...invoke, toolUseId: toolUseIdOf(extra._meta) }),
    );
  }
  return server;
}

/** Claude Code names the tool call an MCP request serves in `_meta` (`claudecode/toolUseId`): the hooks attribute what it opened by it. */
function toolUseIdOf(meta: Record<string, unknown> | undefined): string | undefined {
  const id = meta?.['claudecode/toolUseId'];
  return typeof id === 'string' && /^[\x21-\x7e]{1,200}$/.test(id) ? id : undefined;
}
