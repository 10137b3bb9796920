/**
 * Issue 30, coming from JIXO, every command a real process on fixtures in the shapes JIXO's own
 * history has (packages/jixo-log/test/fixtures/legacy): v1 logs whose Work Log follows a `---` with
 * no heading, v1 logs of entries only, and a v3 log whose Completed task has an entry written before
 * Ratchet audited anything.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, repoRoot, tempDir } from '../helpers.js';

const fixture = (name: string): string => join(repoRoot, 'packages/jixo-log/test/fixtures/legacy', name);
const json = (out: string): Record<string, unknown> => JSON.parse(out) as Record<string, unknown>;

function legacyProject(files: Record<string, string>): string {
  const dir = tempDir('ratchet-jixo-legacy-');
  mkdirSync(join(dir, '.jixo'));
  for (const [to, from] of Object.entries(files)) copyFileSync(fixture(from), join(dir, '.jixo', to));
  return dir;
}

describe('JIXO v1 logs', () => {
  test('import jixo reads them in place (exit 0), and triage on a finished v1 pair says the job is done', () => {
    const dir = legacyProject({ 'manual.task.md': 'v1-finished.task.md', 'manual.log.md': 'v1-finished.log.md', 'changelog.log.md': 'v1-entries.log.md', 'site.log.md': 'v1-no-front-matter.log.md' });
    const imported = ratchet(['--json', 'import', 'jixo'], { cwd: dir });
    expect(imported.status, imported.stdout).toBe(0);
    expect(json(imported.stdout)).toMatchObject({ ok: true, problems: [] });
    const before = readFileSync(join(dir, '.jixo/manual.log.md'), 'utf8');
    const t = ratchet(['--json', 'jixo', 'triage', '.jixo/manual.task.md', '--runner', 'r1'], { cwd: dir });
    expect(t.status, t.stderr).toBe(0);
    expect(json(t.stdout)).toMatchObject({ kind: 'exit', code: 0 });
    // Nothing to change: the file JIXO wrote is left as it was.
    expect(readFileSync(join(dir, '.jixo/manual.log.md'), 'utf8')).toBe(before);
    expect(ratchet(['jixo', 'run', '.jixo/manual.task.md', '--agent', 'false'], { cwd: dir }).stdout).toMatch(/^skipped: the job is already finished/);
    for (const log of ['manual', 'changelog', 'site']) expect(ratchet(['jixo', 'check', `.jixo/${log}.log.md`], { cwd: dir }).status).toBe(0);
  });

  test('a log that is genuinely broken is still refused, with its place and why', () => {
    const dir = legacyProject({ 'manual.task.md': 'v1-finished.task.md' });
    writeFileSync(join(dir, '.jixo/manual.log.md'), '---\ntitle: x\n---\n\nJust some notes.\n');
    const r = ratchet(['jixo', 'triage', '.jixo/manual.task.md', '--runner', 'r1'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/\.jixo\/manual\.log\.md:5:1: .*missing section "## Roadmap"/);
  });
});

describe('a JIXO v3 log audited from the state it was first seen in', () => {
  test('its Completed task with an old-style entry is not a hand edit; a status changed by hand after Ratchet wrote it is', () => {
    const dir = legacyProject({ 'demo.log.md': 'v3-demo.log.md' });
    writeFileSync(join(dir, '.jixo/demo.job.md'), '---\nname: demo\n---\n\nSet up a Node.js project.\n');
    expect(ratchet(['jixo', 'check', '.jixo/demo.log.md'], { cwd: dir }).stdout).toMatch(/ok$/m);
    const locked = ratchet(['jixo', 'task', 'lock', '.jixo/demo.log.md', '2', '--runner', 'r1'], { cwd: dir });
    expect(locked.status, locked.stderr).toBe(0);
    expect(ratchet(['jixo', 'check', '.jixo/demo.log.md'], { cwd: dir }).status).toBe(0);
    const t = ratchet(['--json', 'jixo', 'triage', '.jixo/demo.job.md', '--runner', 'r1'], { cwd: dir });
    expect(t.status, t.stderr).toBe(0);
    const path = join(dir, '.jixo/demo.log.md');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/- \[ \] 2 Create a new directory for the project\.\n {2}- status: Locked\n {2}- runner: r1\n {2}- leaseUntil: \S+/, '- [x] 2 Create a new directory for the project.\n  - status: Completed\n  - runner: r1'));
    const check = ratchet(['jixo', 'check', '.jixo/demo.log.md'], { cwd: dir });
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/demo\.log\.md:\d+:1: error task 2 /);
  });
});
