/**
 * The files in a repository through which each agent CLI runs Ratchet's hooks (and, where the
 * harness has one, configures its sandbox). `ratchet init --harness` writes them; the pre-tool hook
 * treats them as Ratchet's state, since an agent that rewrote them would switch the rails off.
 * Project-relative, `/`-separated, lower case. A light module: every per-call hook bundle has it.
 */
import type { Harness } from './events.js';

export const HARNESS_CONFIG_FILES: Readonly<Record<Harness, readonly string[]>> = {
  claude: ['.claude/settings.json', '.claude/settings.local.json'],
  codex: ['.codex/hooks.json', '.codex/config.toml'],
  // .geminiignore lists what Gemini's tool sandbox hides from the agent's tools and shell.
  gemini: ['.gemini/settings.json', '.geminiignore'],
  copilot: ['.github/hooks/ratchet.json'],
  opencode: ['.opencode/plugin/ratchet.js', '.opencode/plugins/ratchet.js', 'opencode.json', 'opencode.jsonc'],
};

/**
 * Whether Ratchet configures an OS boundary in the harness (its own sandbox makes Ratchet's state
 * read-only to the agent's tools: `ratchet init --harness` sets it up), or runs with none: there
 * the agent's shell has the user's rights, the hooks refuse what they see, and tampering is detected
 * afterwards. Session-start's "no OS boundary" mode is selected from this, by the payload's harness.
 */
export const HARNESS_BOUNDARY: Readonly<Record<Harness, 'sandbox' | 'none'>> = {
  claude: 'none',
  codex: 'sandbox',
  gemini: 'sandbox',
  copilot: 'none',
  opencode: 'none',
};

/** Every harness's files, for the state check. */
export const HOOK_CONFIG_PATHS: readonly string[] = Object.values(HARNESS_CONFIG_FILES).flat();

/**
 * What Codex's and Gemini's own sandboxes are given (`init --harness`): Ratchet's state files and its
 * config, narrower than the hooks' protected paths (protected-paths.ts) on purpose. Gemini's sandbox
 * hides what it protects (the agent could no longer read `protocols/` or `knowledge_core/agent_meta.json`),
 * and Codex 0.171 breaks every sandboxed command when two read-only entries share a missing
 * directory; the hooks still refuse writes to the rest.
 */
export const HARNESS_SANDBOX_PATHS: readonly string[] = [
  '.ratchet/',
  'logs/activity.log.jsonl',
  'knowledge_core/lessons.jsonl',
  'knowledge_core/plan_registry.json',
  'protocols/action_types.json',
  'ratchet.config.json',
  ...HOOK_CONFIG_PATHS,
];

/** Whether `rel` (project-relative, `/`-separated) is one of them, in any letter case. */
export function isHookConfig(rel: string): boolean {
  return HOOK_CONFIG_PATHS.includes(rel.toLowerCase());
}
