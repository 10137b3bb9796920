import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, tempDir } from '../helpers.js';

describe('ratchet init', () => {
  test('scaffolds the protocol machines into a repository, and they check clean', () => {
    const dir = tempDir();
    const r = ratchet(['init', '--cwd', dir]);
    expect(r.status).toBe(0);
    for (const f of ['protocols/fdc.fsm.json', 'protocols/orchestrator.fsm.json', 'protocols/research.fsm.json', '.ratchet/.gitignore']) {
      expect(existsSync(join(dir, f))).toBe(true);
    }
    const fdc = JSON.parse(readFileSync(join(dir, 'protocols/fdc.fsm.json'), 'utf8')) as { $schema: string };
    expect(fdc.$schema).toMatch(/^https:\/\//);
    expect(ratchet(['fsm', 'check', '--strict', 'protocols/fdc.fsm.json'], { cwd: dir }).status).toBe(0);
  });

  test('never overwrites: a changed file is kept, a second run changes nothing', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'protocols'));
    writeFileSync(join(dir, 'protocols/fdc.fsm.json'), 'my own file');
    const first = ratchet(['init', '--json'], { cwd: dir });
    expect(first.status).toBe(0);
    const doc = JSON.parse(first.stdout) as { files: { path: string; outcome: string }[] };
    expect(doc.files.find((f) => f.path === 'protocols/fdc.fsm.json')?.outcome).toBe('kept');
    expect(readFileSync(join(dir, 'protocols/fdc.fsm.json'), 'utf8')).toBe('my own file');
    const second = JSON.parse(ratchet(['init', '--json'], { cwd: dir }).stdout) as { files: { outcome: string }[] };
    expect(second.files.map((f) => f.outcome)).not.toContain('created');
  });

  test('--dry-run writes nothing', () => {
    const dir = tempDir();
    const r = ratchet(['init', '--dry-run'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('would create');
    expect(existsSync(join(dir, 'protocols'))).toBe(false);
  });
});

describe('ratchet quickstart', () => {
  test('runs the whole tour in a fresh directory, every step as described', () => {
    const dir = join(tempDir(), 'tour');
    const r = ratchet(['quickstart', '--dir', dir, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { ok: boolean; steps: { exitCode: number; expectedExitCode: number }[] };
    expect(doc.ok).toBe(true);
    expect(doc.steps.length).toBeGreaterThanOrEqual(6);
    for (const s of doc.steps) expect(s.exitCode).toBe(s.expectedExitCode);
    expect(existsSync(join(dir, 'protocols/fdc.fsm.json'))).toBe(true);
  });

  test('refuses a non-empty directory (exit 2) and leaves it alone', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const r = ratchet(['quickstart', '--dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('not empty');
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('mine');
  });
});
