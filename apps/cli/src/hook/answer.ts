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
  switch (answer.kind) {
    case 'none':
      return;
    case 'deny':
      io.stdout(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`);
      return;
    case 'note':
      io.stdout(`${JSON.stringify({ hookSpecificOutput: { hookEventName: answer.event, additionalContext: answer.context } })}\n`);
      return;
    case 'block':
      io.stdout(`${JSON.stringify({ decision: 'block', reason: answer.reason })}\n`);
  }
}
