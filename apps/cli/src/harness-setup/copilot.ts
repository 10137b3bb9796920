/**
 * `ratchet init --harness copilot`: Ratchet's hooks in `.github/hooks/ratchet.json` (Copilot CLI
 * reads every `.github/hooks/*.json` of a trusted folder). Copilot's command sandbox, off by
 * default, is not configured: it needs slirp4netns and iptables on Linux, and its file tools are
 * not sandboxed; Ratchet runs here with no OS boundary (tampering is detected afterwards).
 */
import { CliError } from '../errors.js';
import { isObject, jsonText, localBin, readJsonObject, writeChange, type FileChange, type Json } from './files.js';
import { callsRatchetHook, hookEntries } from './hook-entries.js';

export const COPILOT_HOOKS = '.github/hooks/ratchet.json';

function commandBase(root: string): string {
  return localBin(root, 'ratchet') ? '"$COPILOT_PROJECT_DIR"/node_modules/.bin/ratchet' : 'ratchet';
}

/** Copilot's shape: `{ "version": 1, "hooks": { "<event>": [{ "type": "command", "bash": ..., "timeoutSec": ... }] } }`. */
export function mergeCopilotHooks(config: Json, root: string): { config: Json; added: string[] } {
  if (config.hooks !== undefined && !isObject(config.hooks)) throw new CliError(`${COPILOT_HOOKS}: "hooks" is not an object; fix it by hand, Ratchet will not guess`, { file: COPILOT_HOOKS, code: 'bad-settings' });
  const hooks: Json = { ...(config.hooks ?? {}) };
  const added: string[] = [];
  for (const entry of hookEntries('copilot', commandBase(root))) {
    const list: unknown = Object.hasOwn(hooks, entry.name) ? hooks[entry.name] : [];
    if (!Array.isArray(list)) throw new CliError(`${COPILOT_HOOKS}: "hooks.${entry.name}" is not a list; fix it by hand, Ratchet will not guess`, { file: COPILOT_HOOKS, code: 'bad-settings' });
    if (list.some((h) => isObject(h) && (callsRatchetHook(h.bash, entry.event, 'copilot') || callsRatchetHook(h.command, entry.event, 'copilot')))) continue;
    hooks[entry.name] = [...(list as unknown[]), { type: 'command', bash: entry.command, timeoutSec: 30 }];
    added.push(entry.name);
  }
  return { config: { version: config.version ?? 1, ...config, hooks }, added };
}

export async function setUpCopilot(root: string, dryRun: boolean): Promise<{ files: FileChange[]; notes: string[] }> {
  const file = readJsonObject(root, COPILOT_HOOKS);
  const merged = mergeCopilotHooks(file.value, root);
  return { files: [await writeChange(root, COPILOT_HOOKS, file.text, merged.added.length === 0 ? file.text! : jsonText(merged.config), dryRun, `hooks for ${merged.added.join(', ')}`)], notes: [] };
}
