/**
 * `ratchet init --harness codex`: Ratchet's hooks in `.codex/hooks.json`, and in
 * `.codex/config.toml` a permission profile for Codex's own sandbox under which the agent's
 * commands and patches cannot write Ratchet's state (its files are read-only to them; Codex keeps
 * `.codex/` read-only by itself), selected as the project's default, plus Ratchet's MCP server,
 * which runs outside the sandbox and is how the agent changes that state.
 */
import { HOOK_CONFIG_PATHS } from '../hook/harness-files.js';
import { HARNESS_SANDBOX_PATHS } from '../hook/harness-files.js';
import { localBin, readJsonObject, readText, writeChange, jsonText, type FileChange } from './files.js';
import { hookEntries, mergeGroupedHooks } from './hook-entries.js';
import { appendBlock, insertTopLevel, tomlShape, tomlString } from './toml-append.js';

export const CODEX_HOOKS = '.codex/hooks.json';
export const CODEX_CONFIG = '.codex/config.toml';
export const CODEX_PROFILE = 'ratchet';

/** Codex runs hooks in the session's directory and names no project directory: find the root through git. */
function commandBase(root: string, bin: string): string {
  return localBin(root, bin) ? `"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/node_modules/.bin/${bin}` : bin;
}

/**
 * Paths the sandbox makes read-only: Ratchet's own state (the hook files of every harness stay the
 * pre-tool hook's to refuse; Codex guards .codex/ itself). Codex 0.171 breaks every sandboxed
 * command when two read-only entries lie under the same missing directory (bwrap cannot mount its
 * placeholder twice), so the list holds no two entries under a directory `ratchet init` does not
 * create. A path missing when a session starts is not covered by the sandbox; the hook still is.
 */
export function codexReadOnlyPaths(): string[] {
  return HARNESS_SANDBOX_PATHS.filter((p) => !HOOK_CONFIG_PATHS.includes(p)).map((p) => p.replace(/\/$/, ''));
}

function profileBlock(): string {
  const lines = [
    `# Ratchet (ratchet init --harness codex): under this profile the agent's commands and patches`,
    `# cannot write Ratchet's state; it changes through Ratchet's hooks and MCP tools only.`,
    `[permissions.${CODEX_PROFILE}]`,
    `extends = ":workspace"`,
    '',
    `[permissions.${CODEX_PROFILE}.filesystem.":project_roots"]`,
    ...codexReadOnlyPaths().map((p) => `${tomlString(p)} = "read"`),
    '',
  ];
  return lines.join('\n');
}

function mcpBlock(root: string): string {
  return [`# Ratchet's MCP server: the agent's way to change Ratchet's state (it runs outside the sandbox).`, `[mcp_servers.ratchet]`, `command = ${tomlString(commandBase(root, 'ratchet-mcp'))}`, ''].join('\n');
}

/** The config.toml with Ratchet's tables added where missing, and notes on what Ratchet left alone. */
export function mergeCodexConfig(text: string, root: string): { text: string; added: string[]; notes: string[] } {
  const shape = tomlShape(text);
  const added: string[] = [];
  const notes: string[] = [];
  let out = text;
  if (![...shape.tables].some((t) => t === `permissions.${CODEX_PROFILE}` || t.startsWith(`permissions.${CODEX_PROFILE}.`))) {
    out = appendBlock(out, profileBlock());
    added.push(`permission profile "${CODEX_PROFILE}"`);
  }
  if (!shape.tables.has('mcp_servers.ratchet')) {
    out = appendBlock(out, mcpBlock(root));
    added.push('MCP server "ratchet"');
  }
  const selected = shape.topKeys.get('default_permissions');
  if (selected === undefined) {
    out = insertTopLevel(out, `default_permissions = ${tomlString(CODEX_PROFILE)}`);
    added.push('default_permissions');
  } else if (selected.replace(/^["']|["']$/g, '') !== CODEX_PROFILE) {
    notes.push(`${CODEX_CONFIG} selects default_permissions = ${selected}; Ratchet's profile "${CODEX_PROFILE}" is defined but not selected, so Codex's sandbox does not protect Ratchet's state`);
  }
  if (shape.topKeys.has('sandbox_mode')) notes.push(`${CODEX_CONFIG} sets sandbox_mode, which makes Codex ignore permission profiles: remove it for Ratchet's profile to apply`);
  return { text: out, added, notes };
}

export async function setUpCodex(root: string, dryRun: boolean): Promise<{ files: FileChange[]; notes: string[] }> {
  const hooksFile = readJsonObject(root, CODEX_HOOKS);
  const hooks = mergeGroupedHooks(hooksFile.value, hookEntries('codex', commandBase(root, 'ratchet')), 'codex', CODEX_HOOKS, (e) => ({ type: 'command', command: e.command, timeout: 30 }));
  const files = [await writeChange(root, CODEX_HOOKS, hooksFile.text, hooks.added.length === 0 ? hooksFile.text! : jsonText(hooks.config), dryRun, `hooks for ${hooks.added.join(', ')}`)];
  const configText = readText(root, CODEX_CONFIG);
  const config = mergeCodexConfig(configText ?? '', root);
  files.push(await writeChange(root, CODEX_CONFIG, configText, config.text, dryRun, config.added.join(', ')));
  return { files, notes: config.notes };
}
