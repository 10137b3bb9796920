/**
 * `ratchet-mcp`: the MCP server over stdio. stdout carries JSON-RPC only; diagnostics go to
 * stderr. The tool selection is checked before the SDK loads, so a typo fails fast with exit 2.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { keepStorageOpen } from '@ratchet/cli';
import { selectionOf, selectTools, ToolSelectionError } from './presets.js';
import { createServer } from './server.js';
import { DEFAULT_MAX_MESSAGE_BYTES, LimitedStdioServerTransport } from './stdio-transport.js';
import { TOOLS } from './tools/index.js';

export async function main(env: Record<string, string | undefined> = process.env, argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let tools;
  try {
    const { value, source } = selectionOf(argv, env);
    tools = selectTools(value, TOOLS, source);
  } catch (err) {
    if (!(err instanceof ToolSelectionError)) throw err;
    process.stderr.write(`ratchet-mcp: ${err.message}\n`);
    return 2;
  }
  const maxMessageBytes = messageLimit(env.RATCHET_MCP_MAX_MESSAGE_BYTES);
  if (typeof maxMessageBytes === 'string') {
    process.stderr.write(`ratchet-mcp: ${maxMessageBytes}\n`);
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
  const transport = new LimitedStdioServerTransport(process.stdin, process.stdout, {
    maxMessageBytes,
    onRefused: (note) => process.stderr.write(`ratchet-mcp: ${note}\n`),
  });
  await server.connect(transport);
  process.stderr.write(`ratchet-mcp: ${tools.length} tools for ${project}\n`);
  return 0;
}

/** RATCHET_MCP_MAX_MESSAGE_BYTES: a whole number of bytes (default 16 MiB); a string says what is wrong. */
function messageLimit(value: string | undefined): number | string {
  if (value === undefined || value === '') return DEFAULT_MAX_MESSAGE_BYTES;
  const n = /^[0-9]{1,15}$/u.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1024) return `RATCHET_MCP_MAX_MESSAGE_BYTES=${value}: expected a whole number of bytes, at least 1024 (default ${DEFAULT_MAX_MESSAGE_BYTES})`;
  return n;
}
