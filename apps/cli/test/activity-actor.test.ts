/**
 * The audit trail says who acted: each lifecycle entry a command writes carries the channel (an MCP
 * call or the command line), the role the harness pinned, and the MCP call's id, so a client of the
 * MCP server without Ratchet's hooks still leaves a trace of the agent's moves.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

async function ratchet(cwd: string, args: string[], env: Record<string, string>): Promise<number> {
  const io: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, env, cwd, readStdin: () => Promise.resolve('') };
  return run(args, io);
}

const entries = (dir: string): { action: { type: string }; actor?: unknown }[] =>
  readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { action: { type: string }; actor?: unknown });

describe('activity entries record who acted', () => {
  test('through the MCP server: the agent, via mcp, with the tool-use id; from a shell: via shell, the pinned role or none', { timeout: 60_000 }, async () => {
    const mcp = mkdtempSync(join(tmpdir(), 'ratchet-actor-'));
    expect(await ratchet(mcp, ['init', '--quiet'], {})).toBe(0);
    expect(await ratchet(mcp, ['task', 'start', '--task-id', 'T-1', '--no-network'], { RATCHET_VIA: 'mcp', RATCHET_ACTOR: 'agent', RATCHET_TOOL_USE_ID: 'toolu_01' })).toBe(0);
    expect(entries(mcp).find((e) => e.action.type === 'TASK_START')?.actor).toEqual({ via: 'mcp', role: 'agent', tool_use_id: 'toolu_01' });

    const shell = mkdtempSync(join(tmpdir(), 'ratchet-actor-'));
    expect(await ratchet(shell, ['init', '--quiet'], {})).toBe(0);
    // A tool-use id claimed from a shell is not the MCP server's: it is not recorded.
    expect(await ratchet(shell, ['task', 'start', '--task-id', 'T-1', '--no-network'], { RATCHET_ACTOR: 'agent', RATCHET_TOOL_USE_ID: 'forged' })).toBe(0);
    expect(entries(shell).find((e) => e.action.type === 'TASK_START')?.actor).toEqual({ via: 'shell', role: 'agent' });

    const person = mkdtempSync(join(tmpdir(), 'ratchet-actor-'));
    expect(await ratchet(person, ['init', '--quiet'], {})).toBe(0);
    expect(await ratchet(person, ['task', 'start', '--task-id', 'T-1', '--no-network'], {})).toBe(0);
    expect(entries(person).find((e) => e.action.type === 'TASK_START')?.actor).toEqual({ via: 'shell' });
  });
});
