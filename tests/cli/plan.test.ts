import { cpSync, mkdirSync, openSync, ftruncateSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { examples, ratchet, tempDir } from '../helpers.js';

/** A fresh project with Ratchet's protocol files and the example plans. */
function project(): string {
  const dir = tempDir('ratchet-plan-');
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  cpSync(join(examples, 'plans'), join(dir, 'examples/plans'), { recursive: true });
  return dir;
}

interface Finding {
  ruleId: string;
  line: number;
  file: string;
  chain?: string[];
}

describe('ratchet plan lint', () => {
  test('a broken plan: every finding with its exact rule and line (exit 1)', () => {
    const dir = project();
    const r = ratchet(['plan', 'lint', 'examples/plans/broken.txt', '--format', 'json'], { cwd: dir });
    expect(r.status).toBe(1);
    const findings = (JSON.parse(r.stdout) as { findings?: Finding[] } | Finding[]);
    const list = Array.isArray(findings) ? findings : (findings.findings ?? []);
    expect(list.map((f) => [f.ruleId, f.line])).toEqual([
      ['file-not-found', 3],
      ['fsm-adherence', 4],
      ['file-exists', 4],
      ['unknown-command', 6],
      ['call-plan-outside-root', 7],
      ['closure-mandate', 8],
    ]);
  });

  test('a good plan with a nested call_plan and a for_each_file loop is clean (exit 0)', () => {
    const dir = project();
    const r = ratchet(['plan', 'lint', 'examples/plans/add-greeting.txt'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('findings inside a sub-plan carry the call chain', () => {
    const dir = project();
    writeFileSync(join(dir, 'sub.txt'), 'set_plan sub\nplan_step_complete\nread_file nowhere.js\nrun_in_bash_session close\n');
    writeFileSync(join(dir, 'main.txt'), 'set_plan main\nplan_step_complete\ncall_plan sub.txt\nrun_in_bash_session close\n');
    const r = ratchet(['--json', 'plan', 'lint', 'main.txt'], { cwd: dir });
    expect(r.status).toBe(1);
    const parsed = JSON.parse(r.stdout) as { findings?: Finding[] } | Finding[];
    const list = Array.isArray(parsed) ? parsed : (parsed.findings ?? []);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ ruleId: 'file-not-found', file: 'sub.txt', line: 3 });
    expect(list[0]!.chain?.[0]).toContain('main.txt');
  });

  test('SARIF 2.1.0 for code scanning', () => {
    const dir = project();
    const r = ratchet(['plan', 'lint', 'examples/plans/broken.txt', '--format', 'sarif'], { cwd: dir });
    expect(r.status).toBe(1);
    const sarif = JSON.parse(r.stdout) as {
      version: string;
      runs: { tool: { driver: { name: string; rules: { id: string }[] } }; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[];
    };
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0]!;
    expect(run.results).toHaveLength(6);
    const first = run.results[0]!;
    expect(run.tool.driver.rules.map((rule) => rule.id)).toContain(first.ruleId);
    expect(first.locations[0]!.physicalLocation).toMatchObject({ artifactLocation: { uri: 'examples/plans/broken.txt' }, region: { startLine: 3 } });
  });

  test('bad input: binary plan, oversized plan, tab indentation, missing plan', () => {
    const dir = project();
    writeFileSync(join(dir, 'bin.txt'), Buffer.from([0x73, 0x65, 0x74, 0x00, 0x01]));
    const bin = ratchet(['plan', 'lint', 'bin.txt'], { cwd: dir });
    expect(bin.status).toBe(2);
    expect(bin.stderr).toMatch(/bin\.txt.*binary/);

    const fd = openSync(join(dir, 'huge.txt'), 'w');
    ftruncateSync(fd, 60 * 1024 * 1024);
    closeSync(fd);
    const huge = ratchet(['plan', 'lint', 'huge.txt'], { cwd: dir });
    expect(huge.status).toBe(2);
    expect(huge.stderr).toMatch(/huge\.txt.*(too large|MiB)/i);

    writeFileSync(join(dir, 'tabs.txt'), 'set_plan x\nplan_step_complete\nfor_each_file protocols/*.json\n\tread_file {file}\nrun_in_bash_session close\n');
    const tabs = ratchet(['--json', 'plan', 'lint', 'tabs.txt'], { cwd: dir });
    expect(tabs.status).toBe(1);
    expect(tabs.stdout).toMatch(/indentation/);

    expect(ratchet(['plan', 'lint', 'nope.txt'], { cwd: dir }).status).toBe(2);
  });
});

describe('ratchet plan registry', () => {
  test('register, refuse a duplicate unless --force, resolve by name in call_plan, list, deregister', () => {
    const dir = project();
    expect(ratchet(['plan', 'registry', 'register', 'tests', 'examples/plans/write-tests.txt'], { cwd: dir }).status).toBe(0);
    const dup = ratchet(['plan', 'registry', 'register', 'tests', 'examples/plans/broken.txt'], { cwd: dir });
    expect(dup.status).toBe(2);
    expect(dup.stderr).toMatch(/tests/);
    expect(ratchet(['plan', 'registry', 'register', 'tests', 'examples/plans/write-tests.txt', '--force'], { cwd: dir }).status).toBe(0);

    writeFileSync(join(dir, 'by-name.txt'), 'set_plan x\nplan_step_complete\ncreate_file_with_block src/greet.js\ncall_plan tests\nrun_in_bash_session close\n');
    expect(ratchet(['plan', 'lint', 'by-name.txt'], { cwd: dir }).status).toBe(0);

    const list = JSON.parse(ratchet(['--json', 'plan', 'registry', 'list'], { cwd: dir }).stdout) as { plans: { name: string; path: string }[] };
    expect(list.plans).toEqual([{ name: 'tests', path: 'examples/plans/write-tests.txt' }]);
    expect(ratchet(['plan', 'registry', 'deregister', 'tests'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['plan', 'registry', 'deregister', 'tests'], { cwd: dir }).status).toBe(2);
  });

  test('a plan outside the project or missing is refused', () => {
    const dir = project();
    expect(ratchet(['plan', 'registry', 'register', 'x', '../outside.txt'], { cwd: dir }).status).toBe(2);
    expect(ratchet(['plan', 'registry', 'register', 'x', 'missing.txt'], { cwd: dir }).status).toBe(2);
  });

  test('a registry that does not parse: exit 2 with its place, and the file is left byte for byte', () => {
    const dir = project();
    mkdirSync(join(dir, 'knowledge_core'), { recursive: true });
    const file = join(dir, 'knowledge_core/plan_registry.json');
    const corrupt = '{"schemaVersion": 1, "plans": {"a": "x.txt",}}';
    writeFileSync(file, corrupt);
    const r = ratchet(['plan', 'registry', 'register', 'tests', 'examples/plans/write-tests.txt'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/plan_registry\.json:1:\d+/);
    expect(readFileSync(file, 'utf8')).toBe(corrupt);
    expect(ratchet(['plan', 'lint', 'examples/plans/add-greeting.txt'], { cwd: dir }).status).toBe(2);
  });
});

describe('ratchet plan analyze', () => {
  test('complexity and modality, sub-plans included', () => {
    const dir = project();
    const r = ratchet(['--json', 'plan', 'analyze', 'examples/plans/add-greeting.txt'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ complexity: 'Polynomial', loopDepth: 1, modality: 'Read-Write' });
  });
});
