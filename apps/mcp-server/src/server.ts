/**
 * The MCP server: one registered tool per selected ToolSpec, each running its command in process.
 * The SDK and zod are imported here, when a server is made, not when the tool table is read.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { annotationsOf } from './annotations.js';
import { invokeTool, type InvokeOptions } from './invoke.js';
import { outputSchemaOf } from './output-schema.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import type { ToolSpec } from './tool-spec.js';
import { VERSION } from './version.js';

export interface ServerOptions extends InvokeOptions {
  tools: readonly ToolSpec[];
}

export async function createServer(options: ServerOptions): Promise<McpServer> {
  const [sdk, z, { ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('zod'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new sdk.McpServer({ name: 'ratchet', version: VERSION });
  const invoke: InvokeOptions = { project: options.project, env: options.env };
  const definitions: Record<string, unknown>[] = [];
  for (const spec of options.tools) {
    // strict: an argument the tool does not define is an input error, not silently ignored.
    const inputSchema = z.object(spec.shape(z)).strict();
    const annotations = annotationsOf(spec);
    server.registerTool(spec.name, { title: spec.title, description: spec.description, inputSchema, annotations }, (args, extra) =>
      invokeTool(spec, args as Record<string, unknown>, { ...invoke, toolUseId: toolUseIdOf(extra._meta) }),
    );
    const input = z.toJSONSchema(inputSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
    // The dialect line repeated in every tool was 15% of tools/list; MCP schemas need none.
    delete input.$schema;
    definitions.push({ name: spec.name, title: spec.title, description: spec.description, inputSchema: input, outputSchema: outputSchemaOf(spec), annotations });
  }
  // The SDK's tools/list renders schemas on every call and only from zod; this one is computed once,
  // with outputSchema from the CLI's published JSON Schemas. Calls still go through the SDK's handler.
  if (definitions.length > 0) server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
  registerResources(server, sdk, invoke);
  registerPrompts(server, z);
  return server;
}

/** Claude Code names the tool call an MCP request serves in `_meta` (`claudecode/toolUseId`): the hooks attribute what it opened by it. */
function toolUseIdOf(meta: Record<string, unknown> | undefined): string | undefined {
  const id = meta?.['claudecode/toolUseId'];
  return typeof id === 'string' && /^[\x21-\x7e]{1,200}$/.test(id) ? id : undefined;
}
