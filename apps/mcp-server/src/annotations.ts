/**
 * A tool's MCP annotations, derived from what its commands do to Ratchet's state as the CLI's
 * COMMAND_EFFECTS table says (the one place that knows), plus the few facts only the tool knows
 * (whether a write removes things, whether a repeat is harmless, whether it reaches outside).
 */
import { COMMAND_EFFECTS } from '@ratchet/cli';
import type { ToolSpec } from './tool-spec.js';

/** MCP ToolAnnotations (hints a client may use to decide what needs a person's confirmation). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/**
 * readOnlyHint: every command the tool runs is a `read` whatever its options. A command whose
 * effect depends on an option (`campaign ready --claim`) may write, so its tool is not read-only.
 * A `user` command is never a tool: the MCP server speaks for the agent.
 */
export function annotationsOf(spec: ToolSpec): ToolHints {
  let readOnly = true;
  for (const command of spec.commands) {
    const entry = COMMAND_EFFECTS[command];
    if (entry === undefined) throw new Error(`tool ${spec.name}: command "${command}" is not in the CLI's COMMAND_EFFECTS`);
    if (entry.effect === 'user') throw new Error(`tool ${spec.name}: "${command}" is the user's decision, never an agent's tool`);
    if (entry.effect !== 'read') readOnly = false;
  }
  const openWorldHint = spec.openWorld === true;
  // destructiveHint and idempotentHint mean something only for a tool that writes (MCP spec).
  if (readOnly) return { readOnlyHint: true, openWorldHint };
  return { readOnlyHint: false, destructiveHint: spec.destructive === true, idempotentHint: spec.idempotent === true, openWorldHint };
}
