/**
 * `ratchet init --harness opencode`: Ratchet's plugin in `.opencode/plugin/ratchet.js` (OpenCode
 * loads every plugin there; no configuration names it). The file is Ratchet's own: a newer
 * Ratchet replaces an older copy, a file of that name that is not Ratchet's is left alone.
 * OpenCode has no sandbox: Ratchet runs here with no OS boundary (tampering is detected afterwards).
 */
import { readFile } from 'node:fs/promises';
import { assetPath } from '../paths.js';
import { readText, writeChange, type FileChange } from './files.js';

export const OPENCODE_PLUGIN = '.opencode/plugin/ratchet.js';
/** The plugin's first line, by which a copy is recognised as Ratchet's. */
const SIGNATURE = '// Ratchet for OpenCode';

/** The plugin as shipped (apps/cli/plugins/opencode/ratchet.js, beside assets/ in the package). */
export function opencodePlugin(): Promise<string> {
  return readFile(assetPath('..', 'plugins', 'opencode', 'ratchet.js'), 'utf8');
}

export async function setUpOpencode(root: string, dryRun: boolean): Promise<{ files: FileChange[]; notes: string[] }> {
  const plugin = await opencodePlugin();
  const existing = readText(root, OPENCODE_PLUGIN);
  if (existing !== undefined && existing !== plugin && !existing.startsWith(SIGNATURE)) {
    return { files: [{ path: OPENCODE_PLUGIN, action: 'kept', what: "a file of that name that is not Ratchet's plugin; move it to install Ratchet's" }], notes: [] };
  }
  return { files: [await writeChange(root, OPENCODE_PLUGIN, existing, plugin, dryRun, "Ratchet's plugin (calls `ratchet hook` per tool call; re-prompts on session.idle)")], notes: [] };
}
