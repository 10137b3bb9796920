/**
 * Run the real Claude Code CLI (the pinned @anthropic-ai/claude-code devDependency) as a user would,
 * in print mode, against the scripted model server, with a throwaway HOME so no user configuration
 * leaks in and nothing leaves the machine.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bin as ratchetBin, repoRoot, tempDir } from '../helpers.js';

const require = createRequire(import.meta.url);
export const claudeCli = require.resolve('@anthropic-ai/claude-code/cli.js');
export const pluginDir = join(repoRoot, 'apps/claude-plugin');
export { ratchetBin, repoRoot };

/** The environment every session gets: offline, no updater, no telemetry, a fresh HOME. */
export function claudeEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Only what a process needs from the outside: no ANTHROPIC_*/CLAUDE_* of the machine running the tests.
  for (const key of ['PATH', 'LANG', 'TMPDIR', 'SystemRoot']) if (process.env[key] !== undefined) env[key] = process.env[key];
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_API_KEY: 'sk-ant-scripted-test-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    DISABLE_COST_WARNINGS: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    CLAUDE_CODE_ENABLE_TELEMETRY: '0',
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

export function freshHome(): string {
  const home = tempDir('ratchet-cc-home-');
  mkdirSync(join(home, '.claude'), { recursive: true });
  return home;
}

export interface ClaudeRun {
  status: number | null;
  stdout: string;
  stderr: string;
  sessionId: string;
  /** The `--output-format json` result, when stdout held one. */
  result?: { is_error?: boolean; result?: string; num_turns?: number; subtype?: string };
}

export interface ClaudeOptions {
  cwd: string;
  home: string;
  baseUrl: string;
  prompt: string;
  sessionId?: string;
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Run a `claude` subcommand (plugin validate, marketplace add, install) under the given HOME. */
export function claude(args: string[], options: { cwd: string; home: string; env?: Record<string, string>; timeoutMs?: number }): Promise<ClaudeRun> {
  return spawnClaude(args, options.cwd, claudeEnv(options.home, options.env), options.timeoutMs ?? 60_000, '');
}

/** One print-mode session: `claude -p PROMPT --permission-mode acceptEdits --session-id ID ...`. */
export async function claudeSession(options: ClaudeOptions): Promise<ClaudeRun> {
  const sessionId = options.sessionId ?? randomUUID();
  // The prompt goes after `--`: a prompt starting with "-b " is not an option, and variadic
  // options such as --allowedTools cannot swallow it.
  const args = ['-p', '--permission-mode', 'acceptEdits', '--session-id', sessionId, '--output-format', 'json', '--model', 'claude-sonnet-4-5', ...(options.args ?? []), '--', options.prompt];
  const env = claudeEnv(options.home, { ANTHROPIC_BASE_URL: options.baseUrl, ...options.env });
  const run = await spawnClaude(args, options.cwd, env, options.timeoutMs ?? 150_000, sessionId);
  try {
    run.result = JSON.parse(run.stdout) as ClaudeRun['result'];
  } catch {
    // Not JSON: the caller's assertion on status/stderr tells the story.
  }
  return run;
}

function spawnClaude(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, sessionId: string): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [claudeCli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`claude ${args.slice(0, 2).join(' ')} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (status) => {
      clearTimeout(guard);
      resolve({ status, stdout, stderr, sessionId });
    });
  });
}
