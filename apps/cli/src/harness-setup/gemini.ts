/**
 * `ratchet init --harness gemini`: Ratchet's hooks in `.gemini/settings.json`, Gemini CLI's tool
 * sandbox turned on there (`security.toolSandboxing`: each shell command and file tool runs in
 * bubblewrap on Linux, Seatbelt on macOS), and Ratchet's state listed in `.geminiignore`, which
 * that sandbox makes unreadable and unwritable to the agent's tools. Ratchet's MCP server, outside
 * the sandbox, is how the agent changes that state.
 */
import { HARNESS_SANDBOX_PATHS } from '../hook/harness-files.js';
import { isObject, jsonText, localBin, readJsonObject, readText, writeChange, type FileChange, type Json } from './files.js';
import { hookEntries, mergeGroupedHooks } from './hook-entries.js';

export const GEMINI_SETTINGS = '.gemini/settings.json';
export const GEMINI_IGNORE = '.geminiignore';
const IGNORE_HEADER = "# Ratchet's state (ratchet init --harness gemini): hidden from the agent's tools and read-only in Gemini CLI's tool sandbox";

function commandBase(root: string, bin: string): string {
  return localBin(root, bin) ? `"$GEMINI_PROJECT_DIR"/node_modules/.bin/${bin}` : bin;
}

/**
 * The .geminiignore lines: Ratchet's state and every harness's hook files (JIXO logs by pattern).
 * Gemini CLI itself still reads its settings; only the agent's tools lose them.
 */
export function geminiIgnoreLines(): string[] {
  return [...HARNESS_SANDBOX_PATHS, '*.log.md'];
}

export function mergeGeminiSettings(settings: Json, root: string): { settings: Json; added: string[]; notes: string[] } {
  const merged = mergeGroupedHooks(settings, hookEntries('gemini', commandBase(root, 'ratchet')), 'gemini', GEMINI_SETTINGS, (e) => ({ name: `ratchet-${e.event}`, type: 'command', command: e.command, timeout: 30_000 }));
  const out: Json = merged.config;
  const added = merged.added.length > 0 ? [`hooks for ${merged.added.join(', ')}`] : [];
  const notes: string[] = [];
  const security = out.security;
  if (security !== undefined && !isObject(security)) notes.push(`${GEMINI_SETTINGS}: "security" is not an object; the tool sandbox was not turned on`);
  else if (security?.toolSandboxing === undefined) {
    out.security = { ...(security ?? {}), toolSandboxing: true };
    added.push('security.toolSandboxing');
  } else if (security.toolSandboxing !== true) notes.push(`${GEMINI_SETTINGS} turns security.toolSandboxing off: Gemini CLI's sandbox does not protect Ratchet's state (the hooks still refuse the writes they see)`);
  const servers = out.mcpServers;
  if (servers !== undefined && !isObject(servers)) notes.push(`${GEMINI_SETTINGS}: "mcpServers" is not an object; Ratchet's MCP server was not added`);
  else if (servers?.ratchet === undefined) {
    out.mcpServers = { ...(servers ?? {}), ratchet: { command: commandBase(root, 'ratchet-mcp') } };
    added.push('MCP server "ratchet"');
  }
  return { settings: out, added, notes };
}

/** The .geminiignore text with Ratchet's lines added where missing. */
export function mergeGeminiIgnore(text: string): { text: string; added: string[] } {
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = geminiIgnoreLines().filter((l) => !present.has(l));
  if (missing.length === 0) return { text, added: [] };
  const head = present.has(IGNORE_HEADER) ? [] : [IGNORE_HEADER];
  const prefix = text === '' ? '' : `${text}${text.endsWith('\n') ? '' : '\n'}\n`;
  return { text: `${prefix}${[...head, ...missing].join('\n')}\n`, added: missing };
}

export async function setUpGemini(root: string, dryRun: boolean): Promise<{ files: FileChange[]; notes: string[] }> {
  const file = readJsonObject(root, GEMINI_SETTINGS);
  const settings = mergeGeminiSettings(file.value, root);
  const files = [await writeChange(root, GEMINI_SETTINGS, file.text, settings.added.length === 0 ? file.text! : jsonText(settings.settings), dryRun, settings.added.join(', '))];
  const ignoreText = readText(root, GEMINI_IGNORE);
  const ignore = mergeGeminiIgnore(ignoreText ?? '');
  files.push(await writeChange(root, GEMINI_IGNORE, ignoreText, ignore.added.length === 0 ? ignoreText! : ignore.text, dryRun, `${ignore.added.length} state path(s)`));
  return { files, notes: settings.notes };
}
