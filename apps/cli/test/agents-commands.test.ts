/**
 * AGENTS.md cannot drift from the CLI: every `ratchet ...` command the compiled protocols show an
 * agent (inline code and code-block lines) must name a real command path of buildProgram, use only
 * options that command (or the root) defines, and pass no more positional arguments than it takes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { buildProgram } from '../src/program.js';
import { problemOf, ratchetCommands } from './markdown-commands.js';

const AGENTS = new URL('../../../AGENTS.md', import.meta.url);

const silent: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') };

describe('AGENTS.md shows only commands the CLI has', () => {
  test('every `ratchet ...` command in the compiled AGENTS.md exists, with options it defines', { timeout: 60_000 }, async () => {
    const program = await buildProgram(silent, { exitCode: 0 });
    const commands = ratchetCommands(readFileSync(AGENTS, 'utf8'));
    expect(commands.length).toBeGreaterThan(20);
    const problems = [...new Set(commands)].flatMap((c) => {
      const p = problemOf(program, c);
      return p === undefined ? [] : [`${c}: ${p}`];
    });
    expect(problems).toEqual([]);
  });

  test('the checker refuses what the CLI would refuse', async () => {
    const program = await buildProgram(silent, { exitCode: 0 });
    expect(problemOf(program, 'ratchet task start <task-id>')).toBe('ratchet task start takes 0 argument(s), 1 given');
    expect(problemOf(program, 'ratchet task begin --task-id x')).toBe('ratchet task has no subcommand "begin"');
    expect(problemOf(program, 'ratchet task start --id x')).toBe('ratchet task start has no option --id');
    expect(problemOf(program, 'ratchet nothing')).toBe('"nothing" is not a ratchet command');
    expect(problemOf(program, 'ratchet task start --task-id T-1 --no-network')).toBeUndefined();
    expect(problemOf(program, 'ratchet --json run next')).toBeUndefined();
  });
});
