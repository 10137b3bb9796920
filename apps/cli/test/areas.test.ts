import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { AREAS, areasFor, commandName } from '../src/areas.js';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

const noAction = (): (() => Promise<void>) => () => Promise.resolve();

describe('command areas', () => {
  test("each area's declared commands are exactly the top-level commands it registers", () => {
    for (const area of AREAS) {
      const program = new Command('ratchet');
      area.register(program, noAction);
      expect(program.commands.map((c) => c.name()).sort()).toEqual([...area.commands].sort());
    }
    const all = AREAS.flatMap((a) => a.commands);
    expect(new Set(all).size).toBe(all.length);
  });

  test('a call registers only the area that owns its command; help and unknown commands get all', () => {
    const core = new Set(['fsm', 'plan', 'init', 'quickstart']);
    expect(commandName(['--json', '--cwd', 'memory', 'run', 'next'])).toBe('run');
    expect(areasFor(['--json', 'run', 'next'], core).map((a) => a.commands[0])).toEqual(['task']);
    expect(areasFor(['turn', 'assess'], core).map((a) => a.commands[0])).toEqual(['goals']);
    expect(areasFor(['fsm', 'check'], core)).toEqual([]);
    expect(areasFor(['--help'], core)).toBe(AREAS);
    expect(areasFor(['tsak'], core)).toBe(AREAS);
    expect(areasFor(undefined, core)).toBe(AREAS);
  });

  test('--help still lists every command, and a typo still gets a suggestion', async () => {
    let out = '';
    let err = '';
    const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd: process.cwd(), readStdin: () => Promise.resolve('') };
    expect(await run(['--help'], io)).toBe(0);
    for (const name of AREAS.flatMap((a) => a.commands)) expect(out).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(await run(['memroy', 'stats'], io)).toBe(2);
    expect(err).toContain("(Did you mean memory?)");
  });
});
