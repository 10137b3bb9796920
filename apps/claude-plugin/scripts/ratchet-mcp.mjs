#!/usr/bin/env node
// The plugin's MCP server: Ratchet's tools, the agent's hands on Ratchet's state. It runs outside
// Claude Code's sandbox (MCP servers are not sandboxed), as the agent: @ratchet/mcp-server, found
// beside the project's or the user's @ratchet/cli (see locate.mjs), started in this process.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, MCP, locate } from './locate.mjs';

const project = process.env.CLAUDE_PROJECT_DIR || process.cwd();
const notes = [];
const cli = locate(CLI, process.env, project, notes);
const server = locate(MCP, process.env, project, notes, cli);
for (const n of notes) process.stderr.write(`ratchet plugin: ${n}\n`);
if (!server) {
  process.stderr.write(
    `ratchet plugin: ${MCP.name} was not found (not in RATCHET_MCP, the project's node_modules, beside ${cli ?? CLI.name}, or as ratchet-mcp on PATH); ` +
      "install it next to @ratchet/cli (`npm install -D @ratchet/mcp-server`). Without it the agent cannot change Ratchet's state from inside the sandbox.\n",
  );
  process.exitCode = 1;
} else {
  const code = await (await import(pathToFileURL(join(server, 'dist', 'main.js')).href)).main({ RATCHET_PROJECT: project, ...process.env });
  if (code !== 0) process.exitCode = code;
}
