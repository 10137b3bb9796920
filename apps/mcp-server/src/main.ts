/**
 * `ratchet-mcp`: the MCP server over stdio. stdout carries JSON-RPC only; diagnostics go to
 * stderr. The tool selection is checked before the SDK loads, so a typo fails fast with exit 2.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { keepStorageOpen } from '@ratchet/cli';
import { selectTools, ToolSelectionError } from './presets.js';
import { createServer } from './server.js';
import { TOOLS } from './tools/index.js';

export async function main(env: Record<string, string | undefined> = process.env): Promise<number> {
  let tools;
  try {
    tools = selectTools(env.RATCHET_MCP_TOOLS, TOOLS);
  } catch (err) {
    if (!(err instanceof ToolSelectionError)) throw err;
    process.stderr.write(`ratchet-mcp: ${err.message}\n`);
    return 2;
  }
  const project = resolve(env.RATCHET_PROJECT || process.cwd());
  // Every call would fail on it; say so once, at start-up, where the client shows the log.
  if (statSync(project, { throwIfNoEntry: false })?.isDirectory() !== true) {
    process.stderr.write(`ratchet-mcp: RATCHET_PROJECT=${project}: not a directory\n`);
    return 2;
  }
  // One storage backend (and connection pool, on PostgreSQL) for the server's life, not one per call.
  const closeStorage = keepStorageOpen();
  const server = await createServer({ project, env, tools });
  server.server.onclose = () => void closeStorage();
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await server.connect(new StdioServerTransport());
  process.stderr.write(`ratchet-mcp: ${tools.length} tools for ${project}\n`);
  return 0;
}
