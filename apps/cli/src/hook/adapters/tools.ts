/**
 * Tool calls in Claude Code's vocabulary, the one Ratchet's decisions read: each harness maps its
 * own tool names and argument keys here (Gemini's `write_file`, Copilot's `create`, OpenCode's
 * `write` -> `Write` with `file_path`; every shell tool -> `Bash` with `command`, so the shell
 * analysis sees it; read-only tools -> the read-only tools the plan-step check lets through).
 * A patch tool becomes `apply_patch` with the `paths` it touches, all judged in one decision.
 * Tools a harness adds later keep their own name and input, which the decisions judge by name
 * and path-like keys.
 */
import { resolve } from 'node:path';
import { patchFiles } from './patch-files.js';

export interface ToolCall {
  toolName: string;
  toolInput: Record<string, unknown>;
  /** The directory the tool acts in, when its input names one (a shell's working directory). */
  dir?: string;
}

export type ToolMapper = (input: Record<string, unknown>) => ToolCall;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A tool that only reads or talks, under the read-only name the decisions know. */
export const readOnly =
  (name: string): ToolMapper =>
  (input) => ({ toolName: name, toolInput: input });

/** A whole-file write: `Write` of the file named by `pathKey`. */
export const writeFile =
  (pathKey: string, contentKey?: string): ToolMapper =>
  (input) => ({ toolName: 'Write', toolInput: { file_path: input[pathKey], ...(contentKey === undefined ? {} : { content: input[contentKey] }) } });

/** An in-place edit: `Edit` of the file named by `pathKey` (its strings are never logged). */
export const editFile =
  (pathKey: string, oldKey: string, newKey: string, tool = 'Edit'): ToolMapper =>
  (input) => ({ toolName: tool, toolInput: { file_path: input[pathKey], old_string: input[oldKey], new_string: input[newKey] } });

/** A shell command: `Bash` with `command`, run in the directory named by `dirKey` when given. */
export const shell =
  (commandKey: string, dirKey?: string): ToolMapper =>
  (input) => {
    const dir = dirKey === undefined ? undefined : str(input[dirKey]);
    return { toolName: 'Bash', toolInput: { command: str(input[commandKey]) ?? '' }, ...(dir === undefined || dir === '' ? {} : { dir }) };
  };

/** A patch in the apply_patch format, its text under the first of `textKeys` that holds a string. */
export const patch =
  (...textKeys: string[]): ToolMapper =>
  (input) => {
    const text = textKeys.map((k) => str(input[k])).find((t) => t !== undefined) ?? '';
    return { toolName: 'apply_patch', toolInput: { paths: patchFiles(text).map((f) => f.path) } };
  };

/**
 * A harness's tool call in the decisions' vocabulary. `ratchetMcp` matches the harness's names for
 * Ratchet's own MCP tools (each harness joins server and tool differently); they become
 * `mcp__ratchet__<tool>`, which the decisions let through.
 */
export function mapTool(map: Readonly<Record<string, ToolMapper>>, ratchetMcp: RegExp | undefined, name: string, input: Record<string, unknown>): ToolCall {
  const mapper = Object.hasOwn(map, name) ? map[name] : undefined;
  if (mapper !== undefined) return mapper(input);
  const mcp = ratchetMcp?.exec(name);
  if (mcp) return { toolName: `mcp__ratchet__${mcp[1]}`, toolInput: input };
  return { toolName: name, toolInput: input };
}

/** The payload's directory for a tool that named its own (relative to the session's). */
export function toolCwd(cwd: string | undefined, call: ToolCall): string | undefined {
  if (call.dir === undefined) return cwd;
  return cwd === undefined ? call.dir : resolve(cwd, call.dir);
}
