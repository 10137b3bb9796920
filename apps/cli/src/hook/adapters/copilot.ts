/**
 * GitHub Copilot CLI: camelCase payloads (`sessionId`, `toolName`, `toolArgs`, `toolResult`; the
 * stop payload's `stop_hook_active` stays snake_case), its own tool names (`create`, `edit`,
 * `bash`, `view`, ...), and answers at the top level: `permissionDecision: "deny"` with its
 * reason, `decision: "block"` at agentStop (the reason becomes a new prompt), `additionalContext`
 * for everything else (shown to the model at every event).
 */
import type { HookAnswer } from '../answer.js';
import type { HookEvent } from '../events.js';
import { ownObject, type HookPayload } from '../payload.js';
import { editFile, mapTool, patch, readOnly, shell, toolCwd, writeFile, type ToolMapper } from './tools.js';
import { json, NO_REPLY, type HarnessAdapter, type HookReply } from './types.js';

const TOOLS: Record<string, ToolMapper> = {
  create: writeFile('path', 'file_text'),
  edit: editFile('path', 'old_str', 'new_str'),
  apply_patch: patch('input', 'patch', 'command'),
  bash: shell('command'),
  // Input typed into a running shell is a command like any other.
  write_bash: shell('input'),
  read_bash: readOnly('BashOutput'),
  list_bash: readOnly('BashOutput'),
  stop_bash: readOnly('KillShell'),
  view: readOnly('Read'),
  grep: readOnly('Grep'),
  glob: readOnly('Glob'),
  web_fetch: readOnly('WebFetch'),
  fetch_copilot_cli_documentation: readOnly('WebFetch'),
  task: readOnly('Task'),
  read_agent: readOnly('Task'),
  list_agents: readOnly('Task'),
  write_agent: readOnly('Task'),
  skill: readOnly('Skill'),
  ask_user: readOnly('AskUserQuestion'),
  report_intent: readOnly('TodoWrite'),
  update_todo: readOnly('TodoWrite'),
  // The session's own database, in COPILOT_HOME.
  sql: readOnly('TodoWrite'),
  session_store_sql: readOnly('TodoWrite'),
};

/** MCP tools are `<server>-<tool>`. */
const RATCHET_MCP = /^ratchet-(.+)$/;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `toolArgs` is an object in 1.0.x, a JSON string in earlier releases. */
function args(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') return ownObject(value);
  try {
    return ownObject(JSON.parse(value));
  } catch {
    return {};
  }
}

function response(value: unknown): unknown {
  const r = ownObject(value);
  return r.resultType === 'failure' || r.resultType === 'denied' || r.resultType === 'rejected' ? { ...r, is_error: true } : value;
}

export function readCopilot(_event: HookEvent, raw: Record<string, unknown>): HookPayload {
  const payload: HookPayload = {
    sessionId: str(raw.sessionId),
    cwd: str(raw.cwd),
    eventName: undefined,
    toolName: str(raw.toolName),
    toolInput: args(raw.toolArgs),
    toolResponse: response(raw.toolResult),
    prompt: str(raw.prompt),
    stopHookActive: raw.stop_hook_active === true || raw.stopHookActive === true,
    // Their transcripts are not Claude Code's JSONL: the Stop replay check reads none.
    toolUseId: undefined,
    transcriptPath: undefined,
    harness: 'copilot',
  };
  if (payload.toolName === undefined) return payload;
  const call = mapTool(TOOLS, RATCHET_MCP, payload.toolName, payload.toolInput);
  return { ...payload, toolName: call.toolName, toolInput: call.toolInput, cwd: toolCwd(payload.cwd, call) };
}

export function replyCopilot(_event: HookEvent, answer: HookAnswer): HookReply {
  switch (answer.kind) {
    case 'none':
      return NO_REPLY;
    case 'deny':
      return json({ permissionDecision: 'deny', permissionDecisionReason: answer.reason });
    case 'block':
      return json({ decision: 'block', reason: answer.reason });
    case 'note':
      return json({ additionalContext: answer.context });
  }
}

export const copilot: HarnessAdapter = { harness: 'copilot', read: readCopilot, reply: replyCopilot };
