/**
 * OpenCode: no command hooks; Ratchet's plugin (assets/opencode/ratchet.js, written by `ratchet
 * init --harness opencode`) calls `ratchet hook <event> --harness opencode` with OpenCode's own
 * values: `tool`, `sessionID`, `callID`, `args`, `directory`, `output`, `prompt`, and
 * `stopHookActive` when its last session.idle sent the model back. The answer is one JSON line the
 * plugin acts on: `decision: "deny"` (it throws: the reason is the tool's result), `decision:
 * "block"` (it re-prompts the session with the reason), `additionalContext` (system text).
 */
import type { HookAnswer } from '../answer.js';
import type { HookEvent } from '../events.js';
import { ownObject, type HookPayload } from '../payload.js';
import { editFile, mapTool, patch, readOnly, shell, toolCwd, writeFile, type ToolMapper } from './tools.js';
import { json, NO_REPLY, type HarnessAdapter, type HookReply } from './types.js';

const TOOLS: Record<string, ToolMapper> = {
  write: writeFile('filePath', 'content'),
  edit: editFile('filePath', 'oldString', 'newString'),
  multiedit: (input) => ({ toolName: 'MultiEdit', toolInput: { file_path: input.filePath } }),
  patch: patch('patchText', 'patch'),
  apply_patch: patch('patchText', 'patch'),
  bash: shell('command', 'workdir'),
  read: readOnly('Read'),
  glob: readOnly('Glob'),
  grep: readOnly('Grep'),
  list: readOnly('LS'),
  webfetch: readOnly('WebFetch'),
  websearch: readOnly('WebSearch'),
  codesearch: readOnly('WebSearch'),
  todowrite: readOnly('TodoWrite'),
  todoread: readOnly('TodoWrite'),
  task: readOnly('Task'),
  skill: readOnly('Skill'),
  question: readOnly('AskUserQuestion'),
};

/** MCP tools are `<server>_<tool>`. */
const RATCHET_MCP = /^ratchet_(.+)$/;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function readOpencode(_event: HookEvent, raw: Record<string, unknown>): HookPayload {
  const payload: HookPayload = {
    sessionId: str(raw.sessionID),
    cwd: str(raw.directory),
    eventName: str(raw.event),
    toolName: str(raw.tool),
    toolInput: ownObject(raw.args),
    toolResponse: raw.output,
    prompt: str(raw.prompt),
    stopHookActive: raw.stopHookActive === true,
    // Their transcripts are not Claude Code's JSONL: the Stop replay check reads none.
    toolUseId: undefined,
    transcriptPath: undefined,
    harness: 'opencode',
  };
  if (payload.toolName === undefined) return payload;
  const call = mapTool(TOOLS, RATCHET_MCP, payload.toolName, payload.toolInput);
  return { ...payload, toolName: call.toolName, toolInput: call.toolInput, cwd: toolCwd(payload.cwd, call) };
}

export function replyOpencode(_event: HookEvent, answer: HookAnswer): HookReply {
  switch (answer.kind) {
    case 'none':
      return NO_REPLY;
    case 'deny':
      return json({ decision: 'deny', reason: answer.reason });
    case 'block':
      return json({ decision: 'block', reason: answer.reason });
    case 'note':
      return json({ additionalContext: answer.context });
  }
}

export const opencode: HarnessAdapter = { harness: 'opencode', read: readOpencode, reply: replyOpencode };
