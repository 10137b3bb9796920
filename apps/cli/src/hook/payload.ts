/**
 * A Claude Code hook payload, read leniently: Claude Code adds fields between releases and a hook
 * must never crash on one it does not know. Only the fields Ratchet acts on are typed; a missing
 * or mistyped one reads as absent, never as an error (the hook then fails open).
 */

/** The hook events `ratchet hook` answers, as the CLI spells them. */
export const HOOK_EVENTS = ['session-start', 'user-prompt-submit', 'pre-tool-use', 'post-tool-use', 'stop', 'subagent-stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's own names, in the order of HOOK_EVENTS (hookEventName in the answers). */
const CLAUDE_NAMES: Record<HookEvent, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  stop: 'Stop',
  'subagent-stop': 'SubagentStop',
};

export function claudeEventName(event: HookEvent): string {
  return CLAUDE_NAMES[event];
}

/** `pre-tool-use`, `PreToolUse` and `pretooluse` all name the same event. */
export function parseHookEvent(name: string): HookEvent | undefined {
  const key = name.toLowerCase().replace(/[-_]/g, '');
  return HOOK_EVENTS.find((event) => event.replace(/-/g, '') === key);
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
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Parse the payload text; throws SyntaxError / TypeError with a short message on anything unusable. */
export function parsePayload(text: string): HookPayload {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new TypeError('the hook payload is empty (Claude Code sends JSON on standard input)');
  const raw = JSON.parse(trimmed) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new TypeError('the hook payload is not a JSON object');
  const o = raw as Record<string, unknown>;
  const input = o.tool_input;
  return {
    sessionId: str(o.session_id),
    cwd: str(o.cwd),
    eventName: str(o.hook_event_name),
    toolName: str(o.tool_name),
    // Own, plain-object fields only: a hostile payload's `__proto__` key is just data here.
    toolInput: typeof input === 'object' && input !== null && !Array.isArray(input) ? Object.assign(Object.create(null) as Record<string, unknown>, input) : {},
    toolResponse: o.tool_response,
    prompt: str(o.prompt),
    stopHookActive: o.stop_hook_active === true,
    toolUseId: str(o.tool_use_id),
    transcriptPath: str(o.transcript_path),
  };
}
