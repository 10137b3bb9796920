import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { AREAS, areasFor, commandName } from '../src/areas.js';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';
import { DIST } from './bundle.js';

const noAction = (): (() => Promise<void>) => () => Promise.resolve();

describe('command areas', () => {
  test("each area's declared commands are exactly the top-level commands it registers", async () => {
    for (const area of AREAS) {
      const program = new Command('ratchet');
      (await area.load())(program, noAction);
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

describe('start-up work of the commands agents call every step', () => {
  // Loading a builtin costs milliseconds on every call: the network stack, child_process (which
  // commander would load for executable subcommands Ratchet never defines) and the other areas'
  // definitions have no business in `run next` or `plan lint`.
  const probe = `
    const before = new Set(process.moduleLoadList);
    const { run } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'main.js')).href)});
    const io = { stdout() {}, stderr() {}, isTTY: false, env: {}, cwd: process.argv[1], readStdin: () => Promise.resolve('') };
    const code = await run(process.argv.slice(2), io);
    console.log(JSON.stringify({ code, loaded: process.moduleLoadList.filter((m) => !before.has(m)) }));`;
  const loadedBy = (args: string[]): { code: number; loaded: string[] } => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-startup-'));
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, dir, ...args], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { code: number; loaded: string[] };
  };

  test.skipIf(!existsSync(DIST))('run next and plan lint load no network stack and no child_process', () => {
    for (const args of [['run', 'next'], ['plan', 'lint', 'missing.plan'], ['fsm', 'check', 'missing.fsm.json']]) {
      const { loaded } = loadedBy(args);
      const builtins = loaded.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
      expect(builtins, args.join(' ')).not.toContain('child_process');
      expect(builtins, args.join(' ')).not.toContain('net');
      expect(builtins, args.join(' ')).not.toContain('dns/promises');
    }
  });
});
