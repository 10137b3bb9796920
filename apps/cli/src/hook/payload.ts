/**
 * A hook payload, read leniently: agent CLIs add fields between releases and a hook must never
 * crash on one it does not know. Only the fields Ratchet acts on are typed; a missing or mistyped
 * one reads as absent, never as an error (the hook then fails open). Claude Code's shape is the
 * one the decisions read; the other harnesses' adapters (src/hook/adapters/) map theirs onto it.
 */
import { HOOK_EVENTS, harnessEventName, parseHookEvent, type Harness, type HookEvent } from './events.js';

export { HOOK_EVENTS, parseHookEvent, type HookEvent };

/** Claude Code's own name for an event (hookEventName in the answers). */
export function claudeEventName(event: HookEvent): string {
  return harnessEventName('claude', event)!;
}

/** Payloads larger than this are refused unread (Claude Code's own are a few KiB). */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

export interface HookPayload {
  sessionId: string | undefined;
  cwd: string | undefined;
  eventName: string | undefined;
  toolName: string | undefined;
  toolInput: Record<string, unknown>;
  toolResponse: unknown;
  prompt: string | undefined;
  stopHookActive: boolean;
  /** The tool call's id (Claude Code and Codex send it; an MCP call carries the same id in `_meta`). */
  toolUseId: string | undefined;
  /** The session's transcript (JSONL), where the harness keeps one. */
  transcriptPath: string | undefined;
  /** The agent CLI that sent it (absent: Claude Code). */
  harness?: Harness;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The payload text as a JSON object; throws SyntaxError / TypeError with a short message on anything unusable. */
export function readPayloadObject(text: string): Record<string, unknown> {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new TypeError('the hook payload is empty (the agent CLI sends JSON on standard input)');
  const raw = JSON.parse(trimmed) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new TypeError('the hook payload is not a JSON object');
  return raw as Record<string, unknown>;
}

/** Own, plain-object fields only: a hostile payload's `__proto__` key is just data here. */
export function ownObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.assign(Object.create(null) as Record<string, unknown>, value) : {};
}

/** Parse a Claude Code payload's text; throws SyntaxError / TypeError with a short message on anything unusable. */
export function parsePayload(text: string): HookPayload {
  return claudePayload(readPayloadObject(text));
}

/** A Claude Code payload object as the decisions read it (Codex's payloads have the same shape). */
export function claudePayload(o: Record<string, unknown>): HookPayload {
  return {
    sessionId: str(o.session_id),
    cwd: str(o.cwd),
    eventName: str(o.hook_event_name),
    toolName: str(o.tool_name),
    toolInput: ownObject(o.tool_input),
    toolResponse: o.tool_response,
    prompt: str(o.prompt),
    stopHookActive: o.stop_hook_active === true,
    toolUseId: str(o.tool_use_id),
    transcriptPath: str(o.transcript_path),
  };
}
