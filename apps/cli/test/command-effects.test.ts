/**
 * The trust boundary's table must cover the command tree: a command missing from it counts as a
 * write (fail closed), which would make a read-only command refuse inside the agent's sandbox, and a
 * stale entry hides a command that was renamed. Every `write` names the MCP tool the agent uses
 * instead (the MCP server's test checks the tool exists).
 */
import { describe, expect, test } from 'vitest';
import { COMMAND_EFFECTS, effectOf } from '../src/command-effects.js';
import type { Io } from '../src/context.js';
import { buildProgram } from '../src/program.js';

const silent: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') };

interface Node {
  name(): string;
  readonly commands: readonly Node[];
}
function leaves(node: Node, path: string[] = []): string[] {
  return node.commands.flatMap((c) => (c.commands.length > 0 ? leaves(c, [...path, c.name()]) : [[...path, c.name()].join(' ')]));
}

describe('command effects', () => {
  test('every command of the tree has an effect, and every entry names a command', { timeout: 60_000 }, async () => {
    const all = leaves((await buildProgram(silent, { exitCode: 0 })));
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((c) => COMMAND_EFFECTS[c] === undefined)).toEqual([]);
    expect(Object.keys(COMMAND_EFFECTS).filter((k) => !all.includes(k))).toEqual([]);
  });

  test('every write names the MCP tool that does it for the agent', () => {
    const missing = Object.entries(COMMAND_EFFECTS).filter(([, e]) => {
      const effects = typeof e.effect === 'function' ? [e.effect({}), e.effect({ dryRun: true, check: true, claim: 'x', record: true })] : [e.effect];
      return effects.includes('write') && e.mcp === undefined;
    });
    expect(missing.map(([n]) => n)).toEqual([]);
  });

  test('an unknown command counts as a write, and --as user makes any command the user’s', () => {
    expect(effectOf('no such command').effect).toBe('write');
    expect(effectOf('run status', { as: 'user' }).effect).toBe('user');
    expect(effectOf('campaign ready').effect).toBe('read');
    expect(effectOf('campaign ready', { claim: 'b1' }).effect).toBe('write');
    expect(effectOf('protocol compile', { check: true }).effect).toBe('read');
    expect(effectOf('task reset').effect).toBe('user');
    expect(effectOf('flow decline').effect).toBe('user');
  });
});
