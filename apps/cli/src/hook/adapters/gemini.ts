/**
 * Gemini CLI: snake_case payloads like Claude Code's, its own tool names (`write_file`, `replace`,
 * `run_shell_command`, ...), and answers as `{decision: "deny", reason}` for BeforeTool (the reason
 * becomes the tool's error) and AfterAgent (the reason becomes a new prompt: the model is sent
 * back). Context goes in `hookSpecificOutput.additionalContext` at SessionStart and BeforeAgent;
 * BeforeTool has no channel to the model but a deny, so a plan-step warning reaches the user
 * (`systemMessage`) only.
 */
import type { HookAnswer } from '../answer.js';
import { harnessEventName, type HookEvent } from '../events.js';
import { ownObject, type HookPayload } from '../payload.js';
import { editFile, mapTool, readOnly, shell, toolCwd, writeFile, type ToolMapper } from './tools.js';
import { json, NO_REPLY, type HarnessAdapter, type HookReply } from './types.js';

const TOOLS: Record<string, ToolMapper> = {
  write_file: writeFile('file_path', 'content'),
  replace: editFile('file_path', 'old_string', 'new_string'),
  run_shell_command: shell('command', 'dir_path'),
  read_file: readOnly('Read'),
  read_many_files: readOnly('Read'),
  list_directory: readOnly('LS'),
  glob: readOnly('Glob'),
  grep_search: readOnly('Grep'),
  search_file_content: readOnly('Grep'),
  web_fetch: readOnly('WebFetch'),
  google_web_search: readOnly('WebSearch'),
  write_todos: readOnly('TodoWrite'),
  update_topic: readOnly('TodoWrite'),
  // Writes the user's ~/.gemini/GEMINI.md, outside every project.
  save_memory: readOnly('TodoWrite'),
  invoke_agent: readOnly('Task'),
  activate_skill: readOnly('Skill'),
  ask_user: readOnly('AskUserQuestion'),
  enter_plan_mode: readOnly('ExitPlanMode'),
  exit_plan_mode: readOnly('ExitPlanMode'),
  list_background_processes: readOnly('BashOutput'),
  read_background_output: readOnly('BashOutput'),
};

/** MCP tools are `mcp_<server>_<tool>`. */
const RATCHET_MCP = /^mcp_ratchet_(.+)$/;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The user's own words: headless Gemini CLI prepends SessionStart's context to the first prompt as
 * `<hook_context>...</hook_context>`, which would hide a leading bypass prefix (`-b `).
 */
export function userPrompt(prompt: string | undefined): string | undefined {
  return prompt?.replace(/^(?:\s*<hook_context>[\s\S]*?<\/hook_context>)+\s*/, '');
}

/** A tool response with an `error` is a failure in the activity log. */
function response(value: unknown): unknown {
  const r = ownObject(value);
  return r.error !== undefined && r.error !== null ? { ...r, is_error: true } : value;
}

export function readGemini(_event: HookEvent, raw: Record<string, unknown>): HookPayload {
  const payload: HookPayload = {
    sessionId: str(raw.session_id),
    cwd: str(raw.cwd),
    eventName: str(raw.hook_event_name),
    toolName: str(raw.tool_name),
    toolInput: ownObject(raw.tool_input),
    toolResponse: response(raw.tool_response),
    prompt: userPrompt(str(raw.prompt)),
    stopHookActive: raw.stop_hook_active === true,
    // Their transcripts are not Claude Code's JSONL: the Stop replay check reads none.
    toolUseId: undefined,
    transcriptPath: undefined,
    harness: 'gemini',
  };
  if (payload.toolName === undefined) return payload;
  const call = mapTool(TOOLS, RATCHET_MCP, payload.toolName, payload.toolInput);
  return { ...payload, toolName: call.toolName, toolInput: call.toolInput, cwd: toolCwd(payload.cwd, call) };
}

export function replyGemini(event: HookEvent, answer: HookAnswer): HookReply {
  switch (answer.kind) {
    case 'none':
      return NO_REPLY;
    case 'deny':
    case 'block':
      return json({ decision: 'deny', reason: answer.reason });
    case 'note':
      if (event === 'session-start' || event === 'user-prompt-submit') return json({ hookSpecificOutput: { hookEventName: harnessEventName('gemini', event), additionalContext: answer.context } });
      return json({ systemMessage: answer.context });
  }
}

export const gemini: HarnessAdapter = { harness: 'gemini', read: readGemini, reply: replyGemini };
