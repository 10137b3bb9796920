/**
 * @ratchet/mcp-server as a library: the tool table and presets (cheap to import), and
 * createServer to host the tools on any MCP transport (it loads the SDK when called).
 */
export { TOOLS } from './tools/index.js';
export { PRESETS, selectionOf, selectTools, ToolSelectionError } from './presets.js';
export { annotationsOf, type ToolHints } from './annotations.js';
export { outputSchemaOf } from './output-schema.js';
export { createServer, type ServerOptions } from './server.js';
export { invokeTool, runCommand, runOperation, toToolResult, type CommandOutcome, type InvokeOptions, type ToolResult } from './invoke.js';
export type { Preset, ToolArgs, ToolSpec } from './tool-spec.js';
