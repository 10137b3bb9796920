import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, repoRoot, tempDir } from '../helpers.js';

const managedBlock = (text: string): string => text.slice(text.indexOf('<!-- ratchet:protocols:begin -->'), text.indexOf('<!-- ratchet:protocols:end -->'));

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
    for (const f of ['protocols/protocol.schema.json', 'protocols/VERSION', 'protocols/compile.json', 'protocols/01-core-directive.protocol.json', 'protocols/04-fdc.protocol.md']) expect(r.stdout).toContain(`would create  ${f}  — `);
    expect(existsSync(join(dir, 'protocols'))).toBe(false);
  });

  test('a fresh project compiles a real AGENTS.md: init, then protocol compile writes the protocol set, and --check is clean', () => {
    const dir = tempDir();
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'protocols/compile.json'), 'utf8')) as { $schema: string; targets: string[] };
    expect(config).toEqual({ $schema: 'https://unpkg.com/@ratchet/protocol-compiler/schemas/compile-config.schema.json', targets: ['AGENTS.md'] });
    const compiled = ratchet(['protocol', 'compile'], { cwd: dir });
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    expect(compiled.stdout).toBe('AGENTS.md: created (11 protocols, version 1.0.0, compact)\n');
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('## `core-directive`');
    expect(agents).toContain('ratchet task start');
    // The same sources and the same CLI: the block Ratchet's own AGENTS.md is compiled into.
    expect(managedBlock(agents)).toBe(managedBlock(readFileSync(join(repoRoot, 'AGENTS.md'), 'utf8')));
    expect(ratchet(['protocol', 'compile', '--check'], { cwd: dir }).status).toBe(0);
    // A project's edit to a source shows up as a stale AGENTS.md, then compiles in.
    writeFileSync(join(dir, 'protocols/VERSION'), '1.1.0\n');
    expect(ratchet(['protocol', 'compile', '--check'], { cwd: dir }).status).toBe(1);
    expect(ratchet(['protocol', 'compile'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toContain('**Version:** 1.1.0');
    // The whole text, on demand and into the file.
    expect(ratchet(['protocol', 'show', 'core-directive'], { cwd: dir }).stdout).toContain('## Protocol `core-directive`');
    expect(ratchet(['protocol', 'compile', '--detail', 'full'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toContain('## Protocol `core-directive`');
    // init again keeps the edit.
    const again = JSON.parse(ratchet(['init', '--json'], { cwd: dir }).stdout) as { files: { path: string; outcome: string }[] };
    expect(again.files.find((f) => f.path === 'protocols/VERSION')?.outcome).toBe('kept');
    expect(readFileSync(join(dir, 'protocols/VERSION'), 'utf8')).toBe('1.1.0\n');
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
