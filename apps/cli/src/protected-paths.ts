/**
 * The files an agent must not write by hand: Ratchet's state, the rules it reads, and the
 * configuration that switches its rails on. One list for every layer that keeps them out of the
 * agent's reach: the PreToolUse hook refuses a tool call that writes one (any tool, any spelling of
 * the path), `ratchet init --claude` makes them read-only to the agent's sandboxed shell
 * (`sandbox.filesystem.denyWrite`) and denies Claude Code's own file tools on them, and Ratchet's
 * commands refuse to write outputs there (`--out`, `store import`).
 *
 * Project-relative, `/`-separated; a trailing `/` covers the whole directory.
 */
import { HOOK_CONFIG_PATHS } from './hook/harness-files.js';

export type ProtectedKind = 'state' | 'rules' | 'config';

export interface ProtectedPath {
  path: string;
  kind: ProtectedKind;
  /** How the file changes properly, for a refusal's message. */
  how: string;
}

export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  { path: '.ratchet/', kind: 'state', how: "through Ratchet's commands (MCP tools), which own it" },
  { path: 'logs/activity.log.jsonl', kind: 'state', how: 'every Ratchet command logs its own action' },
  { path: 'knowledge_core/', kind: 'state', how: 'through `ratchet lessons ...` and `ratchet plan registry ...`' },
  { path: '.jixo/', kind: 'state', how: 'through `ratchet jixo ...`' },
  { path: 'protocols/', kind: 'rules', how: 'through `ratchet lessons apply` or `ratchet protocol update` (or a person edits it, for the next task)' },
  { path: 'ratchet.config.json', kind: 'config', how: 'ask the user: the project config is theirs to change' },
  { path: '.mcp.json', kind: 'config', how: "ask the user: the MCP servers (Ratchet's tools among them) are theirs to change" },
  { path: '.claude/settings.json', kind: 'config', how: 'ask the user: the hooks and sandbox settings are theirs to change' },
  { path: '.claude/settings.local.json', kind: 'config', how: 'ask the user: the hooks and sandbox settings are theirs to change' },
];

/** What the store keeps beside a file: its lock, digest record and last good version. */
const SIDECAR = /^\.(?:lock(?:\.break)?|digest|prev)$/;

/** JIXO logs (`*.log.md`) anywhere in the project, and any lock file beside one. */
const JIXO_LOG = /\.log\.md(?:\.lock(?:\.break)?|\.digest|\.prev|\.rejected-[0-9TZ-]+)?$/;
const JIXO_LOG_ENTRY: ProtectedPath = { path: '*.log.md', kind: 'state', how: 'through `ratchet jixo lock|task|log|unlock`' };

/** Every agent CLI's hook (and sandbox) configuration: an agent that rewrote it would switch the rails off. */
const HARNESS_CONFIG: readonly ProtectedPath[] = HOOK_CONFIG_PATHS.filter((path) => !PROTECTED_PATHS.some((p) => p.path === path)).map((path) => ({
  path,
  kind: 'config',
  how: 'ask the user: the agent CLI\'s hooks and sandbox settings are theirs to change',
}));

/** The protected entry `rel` (project-relative, `/`-separated, any case) falls under, if any. */
export function protectedEntry(rel: string): ProtectedPath | undefined {
  const key = rel.toLowerCase();
  for (const p of [...PROTECTED_PATHS, ...HARNESS_CONFIG]) {
    const path = p.path.toLowerCase();
    if (path.endsWith('/') ? key === path.slice(0, -1) || key.startsWith(path) : key === path || (key.startsWith(path) && SIDECAR.test(key.slice(path.length)))) return p;
  }
  return JIXO_LOG.test(key) ? JIXO_LOG_ENTRY : undefined;
}
