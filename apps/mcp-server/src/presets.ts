/**
 * Which tools the server offers. Tool definitions cost context on every request, so the default is
 * the small `core` set (enough to carry a task from task_start to task_submit); `standard` and
 * `all` grow it. A selection is a comma list of presets and tool names, combined
 * (`core,lessons_apply`): from RATCHET_MCP_TOOLS, or from `--preset` and `--tools` on the command
 * line, which win over it. Anything unknown is refused at start-up, never silently dropped.
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

/**
 * The tools a selection names (undefined or empty: `core`), in table order. Each comma-separated
 * item is a preset (its tools) or a tool name; the result is their union.
 */
export function selectTools(value: string | undefined, tools: readonly ToolSpec[], source?: string): ToolSpec[] {
  const spec = (value ?? '').trim() || 'core';
  const items = spec.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const known = new Set(tools.map((t) => t.name));
  const unknown = items.filter((n) => !known.has(n) && !(PRESETS as readonly string[]).includes(n));
  if (unknown.length > 0 || items.length === 0) {
    throw new ToolSelectionError(
      `${source ?? `RATCHET_MCP_TOOLS=${spec}`}: unknown ${unknown.length === 1 ? 'tool' : 'tools'} ${unknown.join(', ') || '(none named)'}; ` +
        `use presets (${PRESETS.join(', ')}) and tool names, comma-separated (${tools.map((t) => t.name).join(', ')})`,
    );
  }
  const rank = Math.max(-1, ...items.filter((n): n is Preset => (PRESETS as readonly string[]).includes(n)).map((p) => RANK[p]));
  const named = new Set(items);
  return tools.filter((t) => RANK[t.preset] <= rank || named.has(t.name));
}

/**
 * The selection from the command line (`--preset P`, `--tools a,b`, also `--preset=P`) combined,
 * else RATCHET_MCP_TOOLS. Returns the selection and, for the flags, how to name it in a message.
 */
export function selectionOf(argv: readonly string[], env: Record<string, string | undefined>): { value: string | undefined; source: string | undefined } {
  const parts: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--(preset|tools)(?:=(.*))?$/.exec(arg);
    if (m === null) throw new ToolSelectionError(`unknown argument ${arg}; usage: ratchet-mcp [--preset core|standard|all] [--tools name,name]`);
    const value = m[2] ?? argv[++i];
    if (value === undefined || value.trim() === '') throw new ToolSelectionError(`--${m[1]!} needs a value`);
    if (m[1] === 'preset' && !(PRESETS as readonly string[]).includes(value.trim())) throw new ToolSelectionError(`--preset ${value}: not a preset (${PRESETS.join(', ')})`);
    parts.push(value);
    flags.push(`--${m[1]!} ${value}`);
  }
  if (parts.length > 0) return { value: parts.join(','), source: flags.join(' ') };
  return { value: env.RATCHET_MCP_TOOLS, source: undefined };
}
