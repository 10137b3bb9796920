/**
 * Codex CLI (@openai/codex, pinned in scripts/harnesses.mjs) with the configuration `ratchet init
 * --harness codex` writes: its hooks, and its own sandbox under the "ratchet" permission profile.
 * Offline against the scripted Responses API; the project trusted with `codex exec --trust`, the
 * hooks run with --dangerously-bypass-hook-trust (the automation form of the trust step).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin } from '../helpers.js';
import { startModelServer, toolResults } from './model-server.js';
import { installed } from './installed.js';
import { baseEnv, control, harnessHome, harnessProject, PROMPT, realRatchet, SESSION_TIMEOUT, spawnHarness, withRatchet, type Driver } from './session.js';

const codex = installed('codex');

const codexHome = (home: string): string => join(home, '.codex');

const driver: Driver = {
  name: 'codex',
  wire: 'responses',
  sandboxed: true,
  holdsStop: true,
  writeTool: 'apply_patch',
  // A model slug from Codex's own catalog: with an unknown one it offers no apply_patch tool.
  writeFile: (dir, rel, content) => ({ name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Add File: ${rel}\n${content.replace(/\n$/, '').split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch\n` } }),
  editState: () => ({ name: 'apply_patch', input: { patch: '*** Begin Patch\n*** Update File: .ratchet/session.json\n@@\n-  "state": "PLANNING",\n+  "state": "DONE",\n*** End Patch\n' } }),
  shell: (command) => ({ name: 'exec_command', input: { cmd: command } }),
  prepareHome: (home, _dir, model) => {
    mkdirSync(codexHome(home), { recursive: true });
    writeFileSync(
      join(codexHome(home), 'config.toml'),
      ['model = "gpt-5.5"', 'model_provider = "scripted"', '', '[model_providers.scripted]', 'name = "scripted"', `base_url = "${model.url}/v1"`, 'env_key = "SCRIPTED_API_KEY"', 'wire_api = "responses"', ''].join('\n'),
    );
  },
  run: ({ dir, home, prompt, path, timeoutMs }) =>
    spawnHarness(
      codex!.bin,
      // --disable plugins: its one outside connection (a git ls-remote of its plugin index).
      ['exec', '--skip-git-repo-check', '--disable', 'plugins', '--trust', '--dangerously-bypass-hook-trust', '--json', '--', prompt],
      dir,
      baseEnv(home, path, { CODEX_HOME: codexHome(home), SCRIPTED_API_KEY: 'scripted' }),
      timeoutMs,
    ),
};

describe.skipIf(codex === undefined)('Codex CLI with ratchet init --harness codex', () => {
  test('control: with an allow-all ratchet every hook runs and every write goes through, except the state file its sandbox keeps read-only', { timeout: SESSION_TIMEOUT }, async () => {
    await control(driver);
  });

  test('what the hook cannot see, the sandbox refuses: a state write typed into an interactive shell (write_stdin runs no hook)', { timeout: SESSION_TIMEOUT }, async () => {
    const dir = harnessProject('codex');
    const before = readFileSync(join(dir, '.ratchet/session.json'), 'utf8');
    const model = await startModelServer('responses', [
      { tools: [{ name: 'exec_command', input: { cmd: 'bash', tty: true, yield_time_ms: 800 } }] },
      // The session id is Codex's own: read it from the previous tool result. The shell exits after
      // the write (Codex keeps a turn going while one of its terminals runs).
      (request) => ({ tools: [{ name: 'write_stdin', input: { session_id: Number(/session ID (\d+)/.exec(request.toolResults.at(-1) ?? '')?.[1]), chars: 'echo HACKED > .ratchet/session.json; echo wrote=$?; exit\n', yield_time_ms: 1500 } }] }),
      { text: 'Done.' },
    ]);
    const home = harnessHome();
    try {
      driver.prepareHome(home, dir, model);
      const run = await driver.run({ dir, home, model, prompt: PROMPT, path: realRatchet(), ratchetCli: bin, timeoutMs: SESSION_TIMEOUT - 30_000 });
      const typed = toolResults(model).at(-1) ?? '';
      expect(typed, `exit ${run.status}\n${run.stderr.slice(-2000)}`).toContain('Read-only file system');
      expect(typed).toMatch(/wrote=1/);
      expect(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')).toBe(before);
    } finally {
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('with Ratchet: a write while planning, an edit of .ratchet/session.json and a shell write are refused with the reason reaching the model, and the stop is sent back', { timeout: SESSION_TIMEOUT }, async () => {
    await withRatchet(driver);
  });

});
