/**
 * RATCHET_MCP_TOOLS: which tools the server offers. Tool definitions cost context on every request,
 * so the default is the small `core` set; `standard` and `all` grow it, and a comma list names
 * tools one by one. Anything unknown is refused at start-up, never silently dropped.
 */
import type { Preset, ToolSpec } from './tool-spec.js';

export const PRESETS: readonly Preset[] = ['core', 'standard', 'all'];
const RANK: Record<Preset, number> = { core: 0, standard: 1, all: 2 };

export class ToolSelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolSelectionError';
  }
}

/** The tools a RATCHET_MCP_TOOLS value selects (undefined or empty: `core`), in table order. */
export function selectTools(value: string | undefined, tools: readonly ToolSpec[]): ToolSpec[] {
  const spec = (value ?? '').trim() || 'core';
  if ((PRESETS as readonly string[]).includes(spec)) return tools.filter((t) => RANK[t.preset] <= RANK[spec as Preset]);
  const names = spec.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const known = new Set(tools.map((t) => t.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new ToolSelectionError(
      `RATCHET_MCP_TOOLS=${spec}: unknown ${unknown.length === 1 ? 'tool' : 'tools'} ${unknown.join(', ') || '(none named)'}; ` +
        `use a preset (${PRESETS.join(', ')}) or a comma list of tool names (${tools.map((t) => t.name).join(', ')})`,
    );
  }
  const wanted = new Set(names);
  return tools.filter((t) => wanted.has(t.name));
}
