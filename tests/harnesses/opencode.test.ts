/**
 * OpenCode (opencode-ai, pinned in scripts/harnesses.mjs) with Ratchet's plugin as `ratchet init
 * --harness opencode` writes it (.opencode/plugin/ratchet.js). OpenCode has no stop hook; the plugin
 * prompts the session again on session.idle, which only a long-running OpenCode delivers, so the
 * session runs under `opencode serve`, driven over its HTTP API like its TUI drives it. Offline
 * against the scripted Chat Completions API (an @ai-sdk/openai-compatible provider); the plugin
 * runtime OpenCode would npm-install at start is seeded from the harness cache.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'vitest';
import { installed } from './installed.js';
import { baseEnv, control, SESSION_TIMEOUT, withRatchet, type Driver, type RunResult } from './session.js';

const opencode = installed('opencode');

/** OpenCode installs @opencode-ai/plugin into every config folder that holds plugins, from the network, unless it is there. */
function seedPluginRuntime(folder: string): void {
  const seed = opencode!.extras['opencode-plugin']!;
  mkdirSync(folder, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(seed, file), join(folder, file));
  symlinkSync(join(seed, 'node_modules'), join(folder, 'node_modules'));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function api(base: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

const configDir = (home: string): string => join(home, '.config', 'opencode');

const driver: Driver = {
  name: 'opencode',
  wire: 'chat',
  sandboxed: false,
  holdsStop: true,
  writeTool: 'Write',
  writeFile: (dir, rel, content) => ({ name: 'write', input: { filePath: join(dir, rel), content } }),
  editState: (dir) => ({ name: 'write', input: { filePath: join(dir, '.ratchet/session.json'), content: '{"state":"DONE"}\n' } }),
  shell: (command) => ({ name: 'bash', input: { command, description: command } }),
  prepareHome: (home, dir, model) => {
    seedPluginRuntime(configDir(home));
    seedPluginRuntime(join(dir, '.opencode'));
    writeFileSync(
      join(configDir(home), 'opencode.json'),
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        provider: { scripted: { npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: `${model.url}/v1`, apiKey: 'scripted' }, models: { m: { name: 'm', tool_call: true } } } },
        model: 'scripted/m',
        small_model: 'scripted/m',
        autoupdate: false,
        share: 'disabled',
        permission: { edit: 'allow', bash: 'allow' },
      }),
    );
  },
  run: async ({ dir, home, model, prompt, path, ratchetCli, timeoutMs }): Promise<RunResult> => {
    const port = await freePort();
    const env = baseEnv(home, path, { RATCHET_CLI: ratchetCli, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', XDG_CONFIG_HOME: join(home, '.config') });
    const server = spawn(opencode!.bin, ['serve', '--port', String(port), '--hostname', '127.0.0.1'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    server.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    server.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    const base = `http://127.0.0.1:${port}`;
    const query = `?directory=${encodeURIComponent(dir)}`;
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        try {
          await api(base, `/session${query}`, undefined, 5_000);
          break;
        } catch (err) {
          if (Date.now() > deadline) throw new Error(`opencode serve did not answer: ${String(err)}\n${stderr.slice(-2000)}`, { cause: err });
          await sleep(200);
        }
      }
      const session = (await api(base, `/session${query}`, {})) as { id: string };
      // Answers when the turn is over; the plugin's session.idle re-prompt comes after.
      await api(base, `/session/${session.id}/message${query}`, { parts: [{ type: 'text', text: prompt }] }, Math.max(1_000, deadline - Date.now()));
      // Settled: no model request for two seconds (a re-prompt, if any, has been answered).
      for (let seen = -1; seen !== model.requests.length && Date.now() < deadline; ) {
        seen = model.requests.length;
        await sleep(2_000);
      }
      return { status: 0, stdout, stderr };
    } finally {
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  },
};

describe.skipIf(opencode === undefined)('OpenCode (opencode serve) with ratchet init --harness opencode', () => {
  test('control: with an allow-all ratchet the plugin runs every hook and every write goes through, the state file too (no OS boundary)', { timeout: SESSION_TIMEOUT }, async () => {
    await control(driver);
  });

  test('with Ratchet: a write while planning, a write of .ratchet/session.json and a shell write are refused with the reason reaching the model, and session.idle sends it back', { timeout: SESSION_TIMEOUT }, async () => {
    await withRatchet(driver);
  });
});
