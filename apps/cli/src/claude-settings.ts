/**
 * `ratchet init --claude`: Claude Code set up so that Ratchet's rails hold against an agent that
 * tries to walk around them (DESIGN.md principle 11). Merged into what is there (other settings and
 * other hooks are kept as they are; a value the user set is never overwritten, only reported),
 * idempotent, and a settings file that does not parse is reported with its place and never
 * overwritten. What it writes:
 *   - `.claude/settings.json`:
 *     - `sandbox`: on (`enabled`, `failIfUnavailable`, `allowUnsandboxedCommands: false`), with
 *       every protected path (protected-paths.ts) in `filesystem.denyWrite`: Ratchet's state, rules
 *       and configuration are read-only to the agent's shell and everything it starts;
 *     - `permissions.deny`: Claude Code's own file tools (Edit, Write, MultiEdit, NotebookEdit) on
 *       the same paths; `permissions.allow`: Ratchet's MCP tools, the agent's hands on its state;
 *     - `env.RATCHET_ACTOR=agent`: whatever runs in the session acts as the agent;
 *     - the hooks calling `ratchet hook <event>`, unless the Ratchet plugin (which ships them) is on;
 *   - `.mcp.json`: Ratchet's MCP server, unless the plugin (which ships it) is on, and
 *     `enabledMcpjsonServers` so Claude Code starts it without asking.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { JsonParseError, NotFoundError, parseJson, readTextFileSync, writeFileAtomic } from '@ratchet/store';
import { CliError } from './errors.js';
import { HOOK_EVENT_TABLE } from './hook/events.js';
import { PROTECTED_PATHS } from './protected-paths.js';

export const CLAUDE_SETTINGS = '.claude/settings.json';
export const MCP_CONFIG = '.mcp.json';
/** The MCP server's name: its tools are `mcp__ratchet__<tool>` (`mcp__plugin_ratchet_ratchet__<tool>` from the plugin). */
export const MCP_SERVER_NAME = 'ratchet';

/** How settings.json calls ratchet: the project's own install when it has one, else `ratchet` on PATH. */
export function hookCommandBase(root: string): string {
  return existsSync(join(root, 'node_modules', '.bin', 'ratchet')) ? '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ratchet' : 'ratchet';
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(file: string, message: string): CliError {
  return new CliError(`${file}: ${message}; fix it by hand, Ratchet will not guess`, { file, code: 'bad-settings' });
}

function objectAt(parent: Json, key: string, file: string, where: string): Json {
  const value = parent[key];
  if (value === undefined) return {};
  if (!isObject(value)) throw bad(file, `"${where}" is not an object`);
  return value;
}

function listAt(parent: Json, key: string, file: string, where: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw bad(file, `"${where}" is not a list`);
  return value;
}

/** One event's entry in Claude Code's hooks shape (settings.json and a plugin's hooks.json alike). */
function claudeHookGroup(tools: boolean, command: string): Json {
  return { ...(tools ? { matcher: '*' } : {}), hooks: [{ type: 'command', command, timeout: 30 }] };
}

/** The settings with Ratchet's hooks merged in, and the events that were added. Pure. */
export function mergeHooks(settings: Json, base: string, file = CLAUDE_SETTINGS): { settings: Json; added: string[] } {
  const hooks: Json = { ...objectAt(settings, 'hooks', file, 'hooks') };
  const added: string[] = [];
  for (const { event, tools, names } of HOOK_EVENT_TABLE) {
    const claude = names.claude;
    const entries = listAt(hooks, claude, file, `hooks.${claude}`);
    const present = entries.some((e) => isObject(e) && Array.isArray(e.hooks) && e.hooks.some((h) => isObject(h) && typeof h.command === 'string' && h.command.includes(`hook ${event}`) && /ratchet/.test(h.command)));
    if (present) continue;
    hooks[claude] = [...entries, claudeHookGroup(tools, `${base} hook ${event}`)];
    added.push(claude);
  }
  return { settings: { ...settings, hooks }, added };
}

/** How the Claude Code plugin runs an event: its shim finds the CLI (apps/claude-plugin/scripts/ratchet-hook.mjs). */
export const PLUGIN_HOOK_SCRIPT = 'node "${CLAUDE_PLUGIN_ROOT}/scripts/ratchet-hook.mjs"';

/**
 * The Claude Code plugin's hooks/hooks.json: every event of the table, each calling the plugin's
 * shim with Ratchet's name for it. Generated (scripts/generate.ts), never edited by hand.
 */
export function pluginHooksJson(): Json {
  const hooks = Object.fromEntries(HOOK_EVENT_TABLE.map((e) => [e.names.claude, [claudeHookGroup(e.tools, `${PLUGIN_HOOK_SCRIPT} ${e.event}`)]]));
  return { description: "Every hook event goes to `ratchet hook <event>`, which decides from the project's Ratchet state.", hooks };
}

/** `./.ratchet`, `./ratchet.config.json`: the protected paths as Claude Code's sandbox takes them. */
export function sandboxPaths(): string[] {
  return PROTECTED_PATHS.map((p) => `./${p.path.replace(/\/$/, '')}`);
}

/** Permission rules for Claude Code's own file tools on the protected paths (`Edit(./.ratchet/**)`). */
export function denyRules(): string[] {
  const rules: string[] = [];
  for (const tool of ['Edit', 'Write', 'MultiEdit', 'NotebookEdit']) {
    for (const p of PROTECTED_PATHS) rules.push(`${tool}(./${p.path.endsWith('/') ? `${p.path}**` : p.path})`);
  }
  return rules;
}

/** Ratchet's MCP tools, from the project's `.mcp.json` and from the plugin. */
export const MCP_ALLOW = [`mcp__${MCP_SERVER_NAME}`, `mcp__plugin_ratchet_${MCP_SERVER_NAME}`];

export interface BoundaryMerge {
  settings: Json;
  /** What was added, one short line each. */
  added: string[];
  /** Values the user set that weaken the boundary, kept as they are. */
  warnings: string[];
}

const union = (list: unknown[], more: readonly string[]): { list: unknown[]; added: string[] } => {
  const have = new Set(list.filter((x): x is string => typeof x === 'string'));
  const added = more.filter((m) => !have.has(m));
  return { list: [...list, ...added], added };
};

/** The settings with the sandbox, permission rules and RATCHET_ACTOR merged in. Pure. */
export function mergeBoundary(settings: Json, file = CLAUDE_SETTINGS): BoundaryMerge {
  const added: string[] = [];
  const warnings: string[] = [];
  const sandbox: Json = { ...objectAt(settings, 'sandbox', file, 'sandbox') };
  const want: [string, boolean][] = [
    ['enabled', true],
    ['failIfUnavailable', true],
    ['allowUnsandboxedCommands', false],
  ];
  for (const [key, value] of want) {
    if (sandbox[key] === undefined) {
      sandbox[key] = value;
      added.push(`sandbox.${key}: ${String(value)}`);
    } else if (sandbox[key] !== value) {
      warnings.push(`sandbox.${key} is ${JSON.stringify(sandbox[key])} in ${file}: kept as you set it, but the agent's shell can then write Ratchet's files (set it to ${String(value)})`);
    }
  }
  const filesystem: Json = { ...objectAt(sandbox, 'filesystem', file, 'sandbox.filesystem') };
  const denyWrite = union(listAt(filesystem, 'denyWrite', file, 'sandbox.filesystem.denyWrite'), sandboxPaths());
  if (denyWrite.added.length > 0) added.push(`sandbox.filesystem.denyWrite: ${denyWrite.added.join(', ')}`);
  sandbox.filesystem = { ...filesystem, denyWrite: denyWrite.list };

  const permissions: Json = { ...objectAt(settings, 'permissions', file, 'permissions') };
  const deny = union(listAt(permissions, 'deny', file, 'permissions.deny'), denyRules());
  if (deny.added.length > 0) added.push(`permissions.deny: Edit/Write/MultiEdit/NotebookEdit on ${PROTECTED_PATHS.length} protected paths`);
  const allow = union(listAt(permissions, 'allow', file, 'permissions.allow'), MCP_ALLOW);
  if (allow.added.length > 0) added.push(`permissions.allow: ${allow.added.join(', ')}`);

  const env: Json = { ...objectAt(settings, 'env', file, 'env') };
  if (env.RATCHET_ACTOR === undefined) {
    env.RATCHET_ACTOR = 'agent';
    added.push('env.RATCHET_ACTOR: agent');
  } else if (env.RATCHET_ACTOR !== 'agent') {
    warnings.push(`env.RATCHET_ACTOR is ${JSON.stringify(env.RATCHET_ACTOR)} in ${file}: kept as you set it, but the agent then passes for the user outside the sandbox (set it to "agent")`);
  }
  return { settings: { ...settings, sandbox, permissions: { ...permissions, deny: deny.list, allow: allow.list }, env }, added, warnings };
}

/** The MCP config with Ratchet's server added (never replacing one the user named `ratchet`). Pure. */
export function mergeMcpServer(config: Json, command: { command: string; args: string[] }, file = MCP_CONFIG): { config: Json; added: boolean } {
  const servers = objectAt(config, 'mcpServers', file, 'mcpServers');
  if (servers[MCP_SERVER_NAME] !== undefined) return { config, added: false };
  return { config: { ...config, mcpServers: { ...servers, [MCP_SERVER_NAME]: { type: 'stdio', ...command } } }, added: true };
}

/** How `.mcp.json` starts the server: the project's own install when it has one, else `ratchet-mcp` on PATH. */
export function mcpCommand(root: string): { command: string; args: string[] } {
  return existsSync(join(root, 'node_modules', '.bin', 'ratchet-mcp')) ? { command: 'node_modules/.bin/ratchet-mcp', args: [] } : { command: 'ratchet-mcp', args: [] };
}

function readJsonObject(path: string, shown: string): Json | undefined {
  try {
    const value = parseJson(readTextFileSync(path, { maxBytes: 4 * 1024 * 1024 }).text, { path });
    if (!isObject(value)) throw new CliError(`${shown}: expected a JSON object; left as it is`, { file: shown, code: 'bad-settings' });
    return value;
  } catch (err) {
    if (err instanceof JsonParseError) throw new CliError(`${shown}:${err.line}:${err.column}: ${err.reason}; left as it is`, { file: shown, line: err.line, column: err.column, code: 'bad-settings' });
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * Whether the Ratchet plugin is enabled for this project (in the project's or the user's settings):
 * then it ships the hooks and the MCP server, and init writes neither.
 */
export function pluginEnabled(root: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const home = env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude');
  for (const path of [join(root, CLAUDE_SETTINGS), join(root, '.claude/settings.local.json'), join(home, 'settings.json')]) {
    let settings: Json | undefined;
    try {
      settings = readJsonObject(path, path);
    } catch {
      continue;
    }
    const enabled = settings?.enabledPlugins;
    if (isObject(enabled) && Object.entries(enabled).some(([name, on]) => on === true && /^ratchet@/.test(name))) return true;
  }
  return false;
}

export interface ClaudeSetup {
  path: string;
  /** Hook events added to settings.json (none when the plugin ships them). */
  added: string[];
  /** Sandbox, permission and environment settings added. */
  boundary: string[];
  warnings: string[];
  /** Whether `.mcp.json` got Ratchet's server. */
  mcpServer: boolean;
  plugin: boolean;
}

/** Read, merge and (unless dryRun) write `.claude/settings.json` and `.mcp.json` under `root`. */
export async function wireClaude(root: string, dryRun: boolean, env: Readonly<Record<string, string | undefined>> = process.env): Promise<ClaudeSetup> {
  const path = join(root, CLAUDE_SETTINGS);
  const settings = readJsonObject(path, CLAUDE_SETTINGS) ?? {};
  const plugin = pluginEnabled(root, env);
  const hooks = plugin ? { settings, added: [] } : mergeHooks(settings, hookCommandBase(root));
  const boundary = mergeBoundary(hooks.settings);
  let next = boundary.settings;

  let mcpServer = false;
  let mcp: Json | undefined;
  if (!plugin) {
    const current = readJsonObject(join(root, MCP_CONFIG), MCP_CONFIG) ?? {};
    const merged = mergeMcpServer(current, mcpCommand(root));
    mcpServer = merged.added;
    if (merged.added) mcp = merged.config;
    const enabled = union(listAt(next, 'enabledMcpjsonServers', CLAUDE_SETTINGS, 'enabledMcpjsonServers'), [MCP_SERVER_NAME]);
    if (enabled.added.length > 0) {
      next = { ...next, enabledMcpjsonServers: enabled.list };
      boundary.added.push(`enabledMcpjsonServers: ${MCP_SERVER_NAME}`);
    }
  }
  if (!dryRun) {
    if (hooks.added.length > 0 || boundary.added.length > 0) await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, { createParentDirs: true });
    if (mcp !== undefined) await writeFileAtomic(join(root, MCP_CONFIG), `${JSON.stringify(mcp, null, 2)}\n`);
  }
  return { path: CLAUDE_SETTINGS, added: hooks.added, boundary: boundary.added, warnings: boundary.warnings, mcpServer, plugin };
}
