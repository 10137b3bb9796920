/**
 * Answers in Claude Code's hooks protocol: one JSON document on stdout and exit 0 (never JSON and
 * exit 2 together: one blocking channel per answer). An empty answer lets the action go ahead.
 */
import type { Io } from '../context.js';

export type HookAnswer =
  | { kind: 'none' }
  | { kind: 'deny'; reason: string }
  | { kind: 'note'; event: string; context: string }
  | { kind: 'block'; reason: string };

export function writeAnswer(io: Io, answer: HookAnswer): void {
  const text = claudeAnswerText(answer);
  if (text !== '') io.stdout(text);
}

/** The answer as Claude Code reads it (Codex reads the same): one JSON line, or nothing. */
export function claudeAnswerText(answer: HookAnswer): string {
  switch (answer.kind) {
    case 'none':
      return '';
    case 'deny':
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`;
    case 'note':
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: answer.event, additionalContext: answer.context } })}\n`;
    case 'block':
      return `${JSON.stringify({ decision: 'block', reason: answer.reason })}\n`;
  }
}
