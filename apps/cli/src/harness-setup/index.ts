/**
 * `ratchet init --harness <name>`: write one agent CLI's repository configuration for Ratchet's
 * hooks (and, where the harness has a sandbox Ratchet can configure, its protection of Ratchet's
 * state). Files are merged, never clobbered; a file that does not parse is reported and left alone.
 */
import type { Harness } from '../hook/events.js';
import { HARNESS_INFO, type HarnessInfo } from './catalogue.js';
import { setUpCodex } from './codex.js';
import { setUpCopilot } from './copilot.js';
import type { FileChange } from './files.js';
import { setUpGemini } from './gemini.js';
import { setUpOpencode } from './opencode.js';

export { HARNESS_INFO, type HarnessInfo } from './catalogue.js';
export type { FileChange } from './files.js';

export interface HarnessSetup {
  harness: Harness;
  files: FileChange[];
  /** What Ratchet left alone and why (a setting of yours that turns its protection off). */
  notes: string[];
  info: HarnessInfo;
  /** Whether hooks were added now (the trust step is then worth saying). */
  addedHooks: boolean;
}

export async function setUpHarness(root: string, harness: Harness, dryRun: boolean): Promise<HarnessSetup> {
  let result: { files: FileChange[]; notes: string[] };
  switch (harness) {
    case 'claude': {
      // The same as `init --claude`: hooks (unless the plugin ships them), the sandbox, permissions, the MCP server.
      const { wireClaude } = await import('../claude-settings.js');
      const wired = await wireClaude(root, dryRun);
      const changed = wired.added.length > 0 || wired.boundary.length > 0;
      const what = changed ? [...(wired.added.length > 0 ? [`hooks for ${wired.added.join(', ')}`] : []), ...wired.boundary].join('; ') : 'already up to date';
      result = { files: [{ path: wired.path, action: changed ? (dryRun ? 'would-update' : 'updated') : 'unchanged', what }], notes: wired.warnings };
      break;
    }
    case 'codex':
      result = await setUpCodex(root, dryRun);
      break;
    case 'gemini':
      result = await setUpGemini(root, dryRun);
      break;
    case 'copilot':
      result = await setUpCopilot(root, dryRun);
      break;
    case 'opencode':
      result = await setUpOpencode(root, dryRun);
      break;
  }
  const addedHooks = result.files.some((f) => f.action !== 'unchanged' && f.action !== 'kept');
  return { harness, ...result, info: HARNESS_INFO[harness], addedHooks };
}
