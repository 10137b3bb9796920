/**
 * Real Claude Code sessions with the Ratchet plugin, driven by a scripted model: the pieces every
 * session test shares (the tests live in sessions-*.test.ts, so vitest runs them in parallel).
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { bin } from '../helpers.js';
import { claudeSession, freshHome, pluginDir, type ClaudeRun } from './claude.js';
import { startModelServer, textOf, type ModelServer, type Reply } from './model-server.js';
import { ratchetOnPath, readJson } from './project.js';

export const SESSION_TIMEOUT = 180_000;

/** The Stop hook's continuations Claude Code sent to the model, in order. */
export function stopFeedback(server: ModelServer): string[] {
  const last = server.requests.at(-1);
  return (last?.messages ?? []).filter((m) => m.role === 'user').map((m) => textOf(m.content)).filter((t) => t.startsWith('Stop hook feedback:'));
}

export const bash = (command: string): Reply => ({ tools: [{ name: 'Bash', input: { command, description: command } }] });

export interface Session {
  run: ClaudeRun;
  server: ModelServer;
}

/**
 * One session in `dir` with the plugin from --plugin-dir (or as installed under `home`), the
 * worktree's ratchet on PATH for the model's Bash commands and, unless `viaPath`, as RATCHET_CLI.
 */
export async function session(dir: string, prompt: string, script: Reply[], options: { sessionId: string; home?: string; viaPath?: boolean }): Promise<Session> {
  const server = await startModelServer(script);
  try {
    const installed = options.home !== undefined;
    const run = await claudeSession({
      cwd: dir,
      home: options.home ?? freshHome(),
      baseUrl: server.url,
      prompt,
      sessionId: options.sessionId,
      args: [...(installed ? [] : ['--plugin-dir', pluginDir]), '--allowedTools', 'Bash'],
      env: { PATH: `${ratchetOnPath()}:${process.env.PATH ?? ''}`, ...(options.viaPath ? {} : { RATCHET_CLI: bin }) },
      timeoutMs: SESSION_TIMEOUT - 10_000,
    });
    expect(run.status, `claude exited ${run.status}\n${run.stderr}\n${run.stdout}`).toBe(0);
    return { run, server };
  } finally {
    await server.close();
  }
}

export const taskState = (dir: string): string => readJson<{ state: string }>(join(dir, '.ratchet/session.json')).state;
