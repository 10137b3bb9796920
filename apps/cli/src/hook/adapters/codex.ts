/**
 * Codex CLI: payloads and answers in Claude Code's wire format (PreToolUse `permissionDecision`,
 * Stop `decision: block`, `additionalContext` as a developer message). Its tools differ: the shell
 * (`exec_command`) arrives as `Bash`, and file changes as `apply_patch` with the patch text in
 * `tool_input.command`. Its interactive-shell input (`write_stdin`) fires no hook at all: only
 * Codex's sandbox (`ratchet init --harness codex` configures it) covers what is typed there.
 */
import { claudeAnswerText } from '../answer.js';
import { claudePayload } from '../payload.js';
import { mapTool, patch, toolCwd, type ToolMapper } from './tools.js';
import type { HarnessAdapter } from './types.js';

const TOOLS: Record<string, ToolMapper> = {
  apply_patch: patch('command', 'input', 'patch'),
};

export const codex: HarnessAdapter = {
  harness: 'codex',
  read: (_event, raw) => {
    const payload = { ...claudePayload(raw), harness: 'codex' as const };
    if (payload.toolName === undefined) return payload;
    const call = mapTool(TOOLS, undefined, payload.toolName, payload.toolInput);
    return { ...payload, toolName: call.toolName, toolInput: call.toolInput, cwd: toolCwd(payload.cwd, call) };
  },
  reply: (_event, answer) => ({ stdout: claudeAnswerText(answer), exitCode: 0 }),
};
