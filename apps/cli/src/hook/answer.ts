/**
 * Answers in Claude Code's hooks protocol: one JSON document on stdout and exit 0 (never JSON and
 * exit 2 together: one blocking channel per answer). An empty answer lets the action go ahead.
 */
import type { Io } from '../context.js';
import { harnessEventName, type HookEvent } from './events.js';

export type HookAnswer =
  | { kind: 'none' }
  | { kind: 'deny'; reason: string }
  /** Context for the agent, in answer to `event` (each adapter spells the event its harness's way). */
  | { kind: 'note'; event: HookEvent; context: string }
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
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: harnessEventName('claude', 'pre-tool-use'), permissionDecision: 'deny', permissionDecisionReason: answer.reason } })}\n`;
    case 'note':
      return `${JSON.stringify({ hookSpecificOutput: { hookEventName: harnessEventName('claude', answer.event), additionalContext: answer.context } })}\n`;
    case 'block':
      return `${JSON.stringify({ decision: 'block', reason: answer.reason })}\n`;
  }
}
