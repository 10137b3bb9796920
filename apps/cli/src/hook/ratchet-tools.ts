/**
 * Ratchet's own MCP tools as a harness names them: `mcp__ratchet__<tool>` when the project's
 * `.mcp.json` (or `claude mcp add ratchet`) registers the server, `mcp__plugin_ratchet_ratchet__<tool>`
 * when the Claude Code plugin ships it.
 */
const RATCHET_TOOL = /^mcp__(?:plugin_ratchet_)?ratchet__([a-z0-9_]+)$/;

export function isRatchetTool(tool: string | undefined): boolean {
  return tool !== undefined && RATCHET_TOOL.test(tool);
}

/** The Ratchet tool's own name (`campaign_ready`), or undefined for any other tool. */
export function ratchetToolName(tool: string | undefined): string | undefined {
  return tool === undefined ? undefined : RATCHET_TOOL.exec(tool)?.[1];
}
