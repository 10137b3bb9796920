/**
 * Issue 16, symlink escapes: every path Ratchet writes or reads on a user's behalf resolves, symbolic
 * links included, inside the project root (the rule is @ratchet/store's resolveInsideRoot). Each case
 * performs the escape through the built CLI and checks it is refused and nothing outside changed.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

/** A project after `ratchet init`, and beside it a directory outside it holding t.js. */
function setup(): { dir: string; outside: string } {
  const base = tempDir('ratchet-links-');
  const dir = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  writeFileSync(join(outside, 't.js'), 'outside\n');
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  return { dir, outside };
}

const plan = (...lines: string[]): string => ['set_plan escape', 'plan_step_complete go', ...lines, 'run_in_bash_session close', ''].join('\n');

describe.runIf(process.platform !== 'win32')('symbolic links out of the project are refused', () => {
  test('plans that overwrite link.js, create in odir/ or rename into odir/: a path-outside-root finding each, and run plan rejects them', () => {
    const { dir, outside } = setup();
    symlinkSync(outside, join(dir, 'odir'));
    symlinkSync(join(outside, 't.js'), join(dir, 'link.js'));
    writeFileSync(join(dir, 'a.js'), 'a\n');
    mkdirSync(join(dir, 'plans'));
    const cases = {
      'plans/overwrite.txt': plan('overwrite_file_with_block link.js'),
      'plans/create.txt': plan('create_file_with_block odir/new.js'),
      'plans/rename.txt': plan('rename_file a.js odir/a.js'),
    };
    for (const [file, text] of Object.entries(cases)) writeFileSync(join(dir, file), text);
    for (const file of Object.keys(cases)) {
      const lint = ratchet(['--json', 'plan', 'lint', file], { cwd: dir });
      expect(lint.status, file).toBe(1);
      const findings = (JSON.parse(lint.stdout) as { findings?: { ruleId: string; message: string }[] }).findings ?? (JSON.parse(lint.stdout) as { ruleId: string; message: string }[]);
      const outsideFindings = findings.filter((f) => f.ruleId === 'path-outside-root');
      expect(outsideFindings, file).toHaveLength(1);
      expect(outsideFindings[0]!.message).toContain('symbolic link');
    }
    expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
    for (const file of Object.keys(cases)) {
      const r = ratchet(['run', 'plan', file], { cwd: dir });
      expect(r.status, file).toBe(1);
      expect(r.stdout).toContain('path-outside-root');
    }
    expect(readFileSync(join(outside, 't.js'), 'utf8')).toBe('outside\n');
  }, 120_000);

  test('protocol compile: AGENTS.md linked out of the project (no compile.json), and --out ../X or an absolute path outside, are refused', () => {
    const { dir, outside } = setup();
    // No compile.json: the target is AGENTS.md, here a link to a file outside.
    rmSync(join(dir, 'protocols/compile.json'));
    symlinkSync(join(outside, 't.js'), join(dir, 'AGENTS.md'));
    const linked = ratchet(['protocol', 'compile'], { cwd: dir });
    expect(linked.status).toBe(2);
    expect(linked.stderr).toContain('symbolic link');
    expect(readFileSync(join(outside, 't.js'), 'utf8')).toBe('outside\n');
    for (const out of ['../X.md', join(outside, 'Y.md')]) {
      const r = ratchet(['protocol', 'compile', '--out', out], { cwd: dir });
      expect(r.status, out).toBe(2);
      expect(r.stderr).toContain(`--out ${out} refused`);
    }
    expect(existsSync(join(dir, '../X.md'))).toBe(false);
    expect(existsSync(join(outside, 'Y.md'))).toBe(false);
  }, 120_000);

  test('state files linked out of the project are refused: the session, goals.json and the memory file', () => {
    const { dir, outside } = setup();
    writeFileSync(join(outside, 'goals.json'), '{"schemaVersion": 1}\n');
    symlinkSync(join(outside, 'goals.json'), join(dir, '.ratchet/goals.json'));
    const goals = ratchet(['goals', 'add', 'Ship'], { cwd: dir });
    expect(goals.status).toBe(2);
    expect(goals.stderr).toContain('symbolic link');
    expect(readFileSync(join(outside, 'goals.json'), 'utf8')).toBe('{"schemaVersion": 1}\n');
    symlinkSync(join(outside, 'session.json'), join(dir, '.ratchet/session.json')); // broken: writing would create it outside
    const start = ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir });
    expect(start.status).toBe(2);
    expect(existsSync(join(outside, 'session.json'))).toBe(false);
    const memory = ratchet(['memory', 'add-failure', '--trigger', 'boom', '--fix', 'x', '--cost', '1', '--file', '../x.json'], { cwd: dir });
    expect(memory.status).toBe(2);
    expect(memory.stderr).toContain('--file ../x.json refused');
    symlinkSync(outside, join(dir, 'mem'));
    expect(ratchet(['memory', 'add-failure', '--trigger', 'boom', '--fix', 'x', '--cost', '1', '--file', 'mem/m.json'], { cwd: dir }).status).toBe(2);
    expect(existsSync(join(outside, 'm.json'))).toBe(false);
  }, 120_000);

  test('a campaign delta through a symlinked directory is refused with its place', () => {
    const { dir, outside } = setup();
    symlinkSync(outside, join(dir, 'odir'));
    expect(ratchet(['campaign', 'create', 'x'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ objective: 'o', tasks: [{ seq: 1, delta: ['src/a.ts'], verify: 'true' }, { seq: 2, delta: ['odir/t.js'], verify: 'true' }] }, null, 2));
    const r = ratchet(['campaign', 'add-tasks', 'plan.json'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/plan\.json:\d+:\d+: .*delta path "odir\/t\.js" leads through a symbolic link/);
  }, 120_000);

  test('plan analyze reports a registry entry that leads out of the project instead of dropping it', () => {
    const { dir, outside } = setup();
    writeFileSync(join(outside, 'sub.txt'), plan('for_each_file *', '  read_file {file}'));
    symlinkSync(join(outside, 'sub.txt'), join(dir, 'sub.txt'));
    mkdirSync(join(dir, 'plans'));
    writeFileSync(join(dir, 'plans/main.txt'), plan('call_plan sub'));
    writeFileSync(join(dir, 'knowledge_core/plan_registry.json'), JSON.stringify({ schemaVersion: 1, plans: { sub: 'sub.txt' } }));
    const r = ratchet(['--json', 'plan', 'analyze', 'plans/main.txt'], { cwd: dir });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { unread: { path: string; reason: string }[] };
    expect(out.unread).toEqual([{ path: 'sub.txt', reason: expect.stringContaining('symbolic link') as string }]);
  }, 120_000);
});
