/**
 * The one table of hook events: Ratchet's name for each event, how each agent CLI spells it, and
 * how it is served. The bin's fast path (dist/hooks/<fast key>.js), `ratchet hook`'s argument
 * choices, every harness's configuration written by `ratchet init --harness`, the OpenCode plugin and
 * the tests are derived from it, so an event or a harness is added here and nowhere else.
 *
 * Plain data with no imports: every per-call hook bundle carries it.
 */

/** The agent CLIs `ratchet hook` answers, as `--harness` spells them. */
export const HARNESSES = ['claude', 'codex', 'gemini', 'copilot', 'opencode'] as const;
export type Harness = (typeof HARNESSES)[number];

export interface HookEventSpec {
  /** Ratchet's name: `ratchet hook <event>`. */
  event: string;
  /** Runs on every tool call or turn: built as one self-contained start-up file (scripts/bundle.mjs). */
  perCall: boolean;
  /** The event concerns one tool call (configurations give it a tool matcher). */
  tools: boolean;
  /**
   * The event's name in each harness's own configuration, or undefined where the harness has no
   * such event. OpenCode's are the plugin hooks and bus events its plugin listens to.
   */
  names: Readonly<Record<Harness, string | undefined>>;
}

export const HOOK_EVENT_TABLE = [
  {
    event: 'session-start',
    perCall: false,
    tools: false,
    names: { claude: 'SessionStart', codex: 'SessionStart', gemini: 'SessionStart', copilot: 'sessionStart', opencode: 'experimental.chat.system.transform' },
  },
  {
    event: 'user-prompt-submit',
    perCall: false,
    tools: false,
    names: { claude: 'UserPromptSubmit', codex: 'UserPromptSubmit', gemini: 'BeforeAgent', copilot: 'userPromptSubmitted', opencode: 'chat.message' },
  },
  {
    event: 'pre-tool-use',
    perCall: true,
    tools: true,
    names: { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool', copilot: 'preToolUse', opencode: 'tool.execute.before' },
  },
  {
    event: 'post-tool-use',
    perCall: true,
    tools: true,
    names: { claude: 'PostToolUse', codex: 'PostToolUse', gemini: 'AfterTool', copilot: 'postToolUse', opencode: 'tool.execute.after' },
  },
  {
    event: 'stop',
    perCall: true,
    tools: false,
    // OpenCode has no stop hook: its plugin re-prompts on the session.idle bus event, which only a
    // long-running server (`opencode serve`, the TUI) delivers in time; `opencode run` exits first.
    names: { claude: 'Stop', codex: 'Stop', gemini: 'AfterAgent', copilot: 'agentStop', opencode: 'session.idle' },
  },
  {
    event: 'subagent-stop',
    perCall: true,
    tools: false,
    names: { claude: 'SubagentStop', codex: 'SubagentStop', gemini: undefined, copilot: 'subagentStop', opencode: undefined },
  },
] as const satisfies readonly HookEventSpec[];

export type HookEvent = (typeof HOOK_EVENT_TABLE)[number]['event'];

/** The hook events `ratchet hook` answers, as the CLI spells them. */
export const HOOK_EVENTS = HOOK_EVENT_TABLE.map((e) => e.event) as readonly HookEvent[] as readonly [HookEvent, ...HookEvent[]];

/** The bin's key for an event: its start-up file is dist/hooks/<key>.js (`pre-tool-use` -> `pretooluse`). */
export function fastKey(event: string): string {
  return event.toLowerCase().replace(/[-_]/g, '');
}

export function eventSpec(event: HookEvent): HookEventSpec {
  return HOOK_EVENT_TABLE.find((e) => e.event === event)!;
}

/** `harness`'s own name for `event`, or undefined where it has none. */
export function harnessEventName(harness: Harness, event: HookEvent): string | undefined {
  return eventSpec(event).names[harness];
}

/** `pre-tool-use`, `PreToolUse`, `pretooluse` and `pre_tool_use` all name the same event. */
export function parseHookEvent(name: string): HookEvent | undefined {
  const key = fastKey(name);
  return HOOK_EVENTS.find((event) => fastKey(event) === key);
}

export function parseHarness(name: string): Harness | undefined {
  return (HARNESSES as readonly string[]).includes(name) ? (name as Harness) : undefined;
}
