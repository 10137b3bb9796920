/**
 * AGENTS.md lists the plan vocabulary of the project's dialects, generated from the dialect files:
 * a command added to the dialect is stale in AGENTS.md (`protocol compile --check` fails) until the
 * next compile lists it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratchet-vocabulary-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function ratchet(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd: dir, readStdin: () => Promise.resolve('') };
  const code = await run(argv, io);
  return { code, out, err };
}
const agents = (): Promise<string> => readFile(join(dir, 'AGENTS.md'), 'utf8');

describe('AGENTS.md lists the plan vocabulary of the project dialects', () => {
  test('each dialect the project checks plans against, with argument shapes and meanings', { timeout: 60_000 }, async () => {
    expect((await ratchet('init')).code).toBe(0);
    // Compact (the default): each dialect's lines by name.
    expect((await ratchet('protocol', 'compile')).code).toBe(0);
    expect(await agents()).toMatch(/^- `fdc` \(`protocols\/fdc\.dialect\.json`\): Task plans: .*`rename_file <from> <to>`.*`call_plan <name-or-path>`$/m);
    // Full: with what each one means.
    expect((await ratchet('protocol', 'compile', '--detail', 'full')).code).toBe(0);
    const text = await agents();
    expect(text).toContain('### Dialect `fdc` (`protocols/fdc.dialect.json`)');
    expect(text).toContain('- `rename_file <from> <to>`: Moves `<from>` to `<to>`: `<from>` must exist, `<to>` must not. FSM symbol `move_op`.\n');
    expect(text).toContain('- `run_in_bash_session close`: Closes the plan: every plan ends with it. FSM symbol `close_op`.\n');
    expect(text).toContain('- `for_each_file <glob>`: ');
    expect(text).toContain('### Dialect `research` (`protocols/research.dialect.json`)');
    expect(text).toContain('- `google_search [args...]`: Broad gathering: search the web with the keywords; changes no file. FSM symbol `tool_exec`.\n');
    // Ratchet's own close, as a plan author writes it, not as its pattern.
    expect(text).toContain('- `run_in_bash_session ratchet task close --task-id <id>`: Closes the plan');
  });

  test('a command added to the dialect: `--check` reports drift, recompiling lists it', { timeout: 60_000 }, async () => {
    expect((await ratchet('init')).code).toBe(0);
    expect((await ratchet('protocol', 'compile', '--detail', 'full')).code).toBe(0);
    const path = join(dir, 'protocols/fdc.dialect.json');
    const dialect = JSON.parse(await readFile(path, 'utf8')) as { commands: Record<string, unknown> };
    dialect.commands.run_linter = { symbol: 'tool_exec', description: "Run the project's linter" };
    dialect.commands.copy_template = { symbol: 'write_op', effect: 'create', path: 1 };
    await writeFile(path, `${JSON.stringify(dialect, null, 2)}\n`);

    const stale = await ratchet('protocol', 'compile', '--check');
    expect(stale.code).toBe(1);
    expect(stale.out).toContain('AGENTS.md: stale');
    expect(stale.out).toContain("+- `run_linter [args...]`: Run the project's linter. FSM symbol `tool_exec`.");
    expect(stale.out).toContain('+- `copy_template <arg> <file>`: Creates `<file>`, which must not exist yet. FSM symbol `write_op`.');
    expect(await agents()).not.toContain('run_linter');

    expect((await ratchet('protocol', 'compile')).code).toBe(0);
    expect(await agents()).toContain("- `run_linter [args...]`: Run the project's linter. FSM symbol `tool_exec`.\n");
    expect((await ratchet('protocol', 'compile', '--check')).code).toBe(0);
  });

  test('without dialect files the bundled ones are listed, named without a machine-specific path; an invalid dialect fails the compile', { timeout: 60_000 }, async () => {
    await ratchet('init');
    await rm(join(dir, 'protocols/fdc.dialect.json'));
    expect((await ratchet('protocol', 'compile', '--detail', 'full')).code).toBe(0);
    const text = await agents();
    expect(text).toContain('### Dialect `fdc` (`bundled fdc.dialect.json`)');
    expect(text).toContain('The project has no `protocols/fdc.dialect.json`, so it is the copy bundled with ratchet');
    expect(text).not.toContain(tmpdir());
    expect(text).not.toMatch(/assets\//);

    await writeFile(join(dir, 'protocols/research.dialect.json'), '{"id": "research", "fsm": "research.fsm.json", "close": "close_op", "commands": {"x": {"symbol": "nope"}}}\n');
    const bad = await ratchet('protocol', 'compile');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('protocols/research.dialect.json');
    expect(bad.err).toContain('invalid dialect');
  });
});
