/**
 * What each harness gives Ratchet, in words a user acts on: the trust step before its repository
 * hooks run (each harness skips them silently until then), whether Ratchet configures an OS
 * boundary there (the harness's own sandbox) or runs with none, and what holds the end of a turn.
 * `ratchet init --harness` prints the trust step once; the READMEs' tables say the same.
 */
import type { Harness } from '../hook/events.js';
import { HARNESS_BOUNDARY } from '../hook/harness-files.js';

export interface HarnessInfo {
  title: string;
  /** `sandbox`: the harness's own sandbox makes Ratchet's state read-only to the agent's tools; `none`: no OS boundary. */
  boundary: 'sandbox' | 'none';
  /** The step that makes the harness run repository hooks, and what happens without it. */
  trustStep: string;
  /** How the end of a turn is held while obligations are open. */
  stop: string;
}

const INFO: Readonly<Record<Harness, Omit<HarnessInfo, 'boundary'>>> = {
  claude: {
    title: 'Claude Code',
    trustStep: 'Claude Code asks once whether you trust this folder before it runs hooks from .claude/settings.json; answer yes.',
    stop: 'Stop and SubagentStop block; the reason is fed back to the model.',
  },
  codex: {
    title: 'Codex CLI',
    trustStep:
      'Codex runs repository hooks only in a trusted project, after you review them: run `codex` here once, trust the folder, and choose "Trust all and continue" when it lists the hooks. Automation: `codex exec --trust` once, and `--dangerously-bypass-hook-trust` on every run. Until then Codex skips .codex/ (hooks, sandbox profile, MCP server) without a warning.',
    stop: 'Stop and SubagentStop block (`decision: block`); the reason comes back to the model as a new prompt.',
  },
  gemini: {
    title: 'Gemini CLI',
    trustStep:
      'Gemini CLI reads .gemini/settings.json only in a trusted folder when folder trust is on: trust this folder when asked (or with /permissions). Never pass --skip-trust: it skips repository hooks without a warning. Headless runs in an untrusted folder need GEMINI_CLI_TRUST_WORKSPACE=true.',
    stop: 'AfterAgent denies the answer; Gemini retries with the reason as the prompt. No subagent stop hook.',
  },
  copilot: {
    title: 'GitHub Copilot CLI',
    trustStep:
      'Copilot CLI runs .github/hooks/*.json only in a git repository and a trusted folder: answer yes to "Do you trust the files in this folder?" in an interactive session (it records the folder under trustedFolders in ~/.copilot/config.json), or pass --trust-folder with -p. Until then it skips them without a warning; `disableAllHooks` in its settings turns them off too.',
    stop: 'agentStop and subagentStop block (`decision: block`); the reason comes back as a new prompt.',
  },
  opencode: {
    title: 'OpenCode',
    trustStep: 'No trust step: OpenCode loads .opencode/plugin/ratchet.js in every session in this folder.',
    stop: 'No stop hook: on session.idle the plugin prompts the session again with the reason, which only a long-running OpenCode (the TUI, `opencode serve`) delivers; `opencode run` exits at idle and cannot be held.',
  },
};

export const HARNESS_INFO: Readonly<Record<Harness, HarnessInfo>> = Object.fromEntries(
  Object.entries(INFO).map(([harness, info]) => [harness, { ...info, boundary: HARNESS_BOUNDARY[harness as Harness] }]),
) as Record<Harness, HarnessInfo>;
