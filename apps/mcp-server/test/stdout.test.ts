import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect, test } from 'vitest';
import { serverBin, taskProject } from './helpers.js';

/**
 * Below the SDK client: raw JSON-RPC over the pipes, so every byte the server writes to stdout is
 * seen. Commands that print notes and errors (task start's orientation, a missing plan, a command
 * that wants standard input) must leave nothing but JSON-RPC frames on stdout, and a command's
 * standard input must never be read from the server's (the next request still arrives).
 */
test('stdout carries only JSON-RPC frames; commands never read the server stdin', { timeout: 120_000 }, async () => {
  const dir = taskProject();
  const child = spawn(process.execPath, [serverBin], { cwd: dir, env: { ...process.env, RATCHET_MCP_TOOLS: 'all', RATCHET_PROJECT: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr += c));
  const lines: string[] = [];
  const waiting = new Map<number, (frame: { result?: { isError?: boolean; content: { text: string }[] } }) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    const frame = JSON.parse(line) as { id?: number };
    if (typeof frame.id === 'number') waiting.get(frame.id)?.(frame as never);
  });
  let id = 0;
  const request = (method: string, params: unknown): Promise<{ result?: { isError?: boolean; content: { text: string }[] } }> =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const callTool = (name: string, args: Record<string, unknown>) => request('tools/call', { name, arguments: args });

  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  expect((await callTool('task_start', { task_id: 'T-1', network: false })).result?.isError).toBeFalsy();
  expect((await callTool('run_plan', { plan: 'plans/missing.txt' })).result?.isError).toBe(true);
  // `-` makes add-tasks read standard input: over MCP that is refused, not taken from the JSON-RPC pipe.
  const stdin = await callTool('campaign_add_tasks', { file: '-' });
  expect(stdin.result?.isError).toBe(true);
  expect(stdin.result?.content[0]?.text).toContain('standard input is not available over MCP');
  // Still answering: nothing consumed the requests that followed.
  expect((await callTool('run_next', {})).result?.isError).toBeFalsy();
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));

  expect(lines.length).toBeGreaterThanOrEqual(5);
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  expect(stderr).toContain('ratchet-mcp:');
});
