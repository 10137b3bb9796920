/**
 * Real processes: the built `ratchet-mcp` driven by the SDK's own Client over stdio, and the built
 * `ratchet` to set projects up the way a user would. Run `pnpm build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));
export const serverBin = join(here, '../bin/ratchet-mcp.js');
export const ratchetBin = join(here, '../../cli/bin/ratchet.js');

for (const built of [join(here, '../dist/main.js'), join(here, '../../cli/dist/main.js')]) {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`pnpm build\` before these tests`);
}

export function tempDir(prefix = 'ratchet-mcp-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The built CLI in `cwd`; fails the test unless it exits 0. */
export function ratchet(args: string[], cwd: string): string {
  const r = spawnSync(process.execPath, [ratchetBin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(r.status, `ratchet ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** A project after `ratchet init` with a 4-step plan whose third step calls a registered 3-step sub-plan. */
export function taskProject(): string {
  const dir = tempDir('ratchet-mcp-task-');
  ratchet(['init', '--quiet'], dir);
  mkdirSync(join(dir, 'plans'));
  writeFileSync(join(dir, 'plans/main.txt'), 'set_plan main\nplan_step_complete go\ncall_plan sub\nrun_in_bash_session close\n');
  writeFileSync(join(dir, 'plans/sub.txt'), 'set_plan sub\nplan_step_complete go\nrun_in_bash_session close\n');
  ratchet(['plan', 'registry', 'register', 'sub', 'plans/sub.txt'], dir);
  return dir;
}

export interface Connected {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

/** Starts `ratchet-mcp` for `project` and connects the SDK client to it (initialize included). */
export async function connect(project: string, env: Record<string, string> = {}, args: string[] = []): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBin, ...args],
    cwd: project,
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1', RATCHET_MCP_TOOLS: '', RATCHET_PROJECT: '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += String(chunk)));
  const client = new Client({ name: 'ratchet-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export type ToolCall = CallToolResult & { structuredContent?: Record<string, unknown> };

export async function call(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<ToolCall> {
  return (await c.client.callTool({ name, arguments: args })) as ToolCall;
}

/** A call that must succeed; returns its structured content. */
export async function ok(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await call(c, name, args);
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  expect(r.structuredContent).toBeDefined();
  return r.structuredContent!;
}

/** The text of a tool error. */
export function errorText(r: ToolCall): string {
  expect(r.isError).toBe(true);
  const first = r.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** A task project with a server connected to it and task T-1 started (PLANNING). */
export async function plannedTask(): Promise<{ dir: string; server: Connected }> {
  const dir = taskProject();
  const server = await connect(dir);
  await ok(server, 'task_start', { task_id: 'T-1', network: false });
  return { dir, server };
}
