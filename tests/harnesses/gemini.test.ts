/**
 * Gemini CLI (@google/gemini-cli, pinned in scripts/harnesses.mjs) with the configuration `ratchet
 * init --harness gemini` writes: its hooks in .gemini/settings.json, its tool sandbox on, Ratchet's
 * state in .geminiignore. Offline against the scripted Gemini API; the folder trusted the way the
 * trust dialog records it (~/.gemini/trustedFolders.json), folder trust left at its default (on).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { installed } from './installed.js';
import { baseEnv, control, SESSION_TIMEOUT, spawnHarness, withRatchet, type Driver } from './session.js';

const gemini = installed('gemini');

const driver: Driver = {
  name: 'gemini',
  wire: 'gemini',
  sandboxed: true,
  holdsStop: true,
  writeTool: 'Write',
  writeFile: (dir, rel, content) => ({ name: 'write_file', input: { file_path: join(dir, rel), content } }),
  editState: (dir) => ({ name: 'replace', input: { file_path: join(dir, '.ratchet/session.json'), old_string: '"state": "PLANNING"', new_string: '"state": "DONE"', instruction: 'finish the task' } }),
  shell: (command) => ({ name: 'run_shell_command', input: { command, description: command } }),
  prepareHome: (home, dir) => {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(
      join(home, '.gemini/settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        telemetry: { enabled: false },
      }),
    );
    // The trust step, as Gemini CLI's trust dialog records it.
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [dir]: 'TRUST_FOLDER' }));
  },
  run: ({ dir, home, model, prompt, path, timeoutMs }) =>
    // --approval-mode yolo: headless Gemini CLI offers its write tools only then.
    spawnHarness(gemini!.bin, ['--approval-mode', 'yolo', '-o', 'stream-json', `--prompt=${prompt}`], dir, baseEnv(home, path, { GEMINI_API_KEY: 'scripted', GOOGLE_GEMINI_BASE_URL: model.url }), timeoutMs),
};

describe.skipIf(gemini === undefined)('Gemini CLI with ratchet init --harness gemini', () => {
  test('control: with an allow-all ratchet every hook runs and every write goes through, except the state file its tool sandbox keeps out of reach', { timeout: SESSION_TIMEOUT }, async () => {
    await control(driver);
  });

  test('with Ratchet: a write while planning, an edit of .ratchet/session.json and a shell write are refused with the reason reaching the model, and AfterAgent sends it back', { timeout: SESSION_TIMEOUT }, async () => {
    await withRatchet(driver);
  });
});
