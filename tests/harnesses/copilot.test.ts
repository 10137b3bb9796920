/**
 * GitHub Copilot CLI (@github/copilot, pinned in scripts/harnesses.mjs) with the configuration
 * `ratchet init --harness copilot` writes: .github/hooks/ratchet.json. Offline in its own-model
 * mode (COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE) against the scripted Chat Completions API, no
 * GitHub login; the folder trusted as its trust prompt records it (trustedFolders in config.json).
 * No sandbox is configured: the control shows the state edit going through once the hook allows it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { installed } from './installed.js';
import { baseEnv, control, SESSION_TIMEOUT, spawnHarness, withRatchet, type Driver } from './session.js';

const copilot = installed('copilot');

const copilotHome = (home: string): string => join(home, '.copilot');

const driver: Driver = {
  name: 'copilot',
  wire: 'chat',
  sandboxed: false,
  holdsStop: true,
  writeTool: 'Write',
  writeFile: (dir, rel, content) => ({ name: 'create', input: { path: join(dir, rel), file_text: content } }),
  editState: (dir) => ({ name: 'edit', input: { path: join(dir, '.ratchet/session.json'), old_str: '"state": "PLANNING"', new_str: '"state": "DONE"' } }),
  shell: (command) => ({ name: 'bash', input: { command, description: command } }),
  prepareHome: (home, dir) => {
    mkdirSync(copilotHome(home), { recursive: true });
    // The trust step, as Copilot CLI's "Do you trust the files in this folder?" records it.
    writeFileSync(join(copilotHome(home), 'config.json'), JSON.stringify({ trustedFolders: [dir] }));
  },
  run: ({ dir, home, model, prompt, path, timeoutMs }) =>
    spawnHarness(
      copilot!.bin,
      [`--prompt=${prompt}`, '--allow-all-tools', '--output-format', 'json'],
      dir,
      baseEnv(home, path, {
        COPILOT_HOME: copilotHome(home),
        // Its runtime, unpacked once at install instead of 235 MB into every fresh home.
        XDG_CACHE_HOME: copilot!.xdgCache,
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'scripted',
        COPILOT_MODEL: 'gpt-4.1',
        COPILOT_AUTO_UPDATE: 'false',
        CI: '1',
      }),
      timeoutMs,
    ),
};

describe.skipIf(copilot === undefined)('Copilot CLI with ratchet init --harness copilot', () => {
  test('control: with an allow-all ratchet every hook runs and every write goes through, the state file too (no OS boundary)', { timeout: SESSION_TIMEOUT }, async () => {
    await control(driver);
  });

  test('with Ratchet: a write while planning, an edit of .ratchet/session.json and a shell write are refused with the reason reaching the model, and agentStop sends it back', { timeout: SESSION_TIMEOUT }, async () => {
    await withRatchet(driver);
  });
});
