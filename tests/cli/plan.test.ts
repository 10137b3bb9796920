import { closeSync, cpSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('ratchet plan lint options', () => {
  // A tool run while gathering: the research FSM allows it before the step, the default (fdc) one only after.
  const RESEARCH = 'set_plan topic\nrun_in_bash_session curl -s https://example.com/pda\nplan_step_complete synthesise\ncreate_file_with_block report.md\nrun_in_bash_session close\n';
  const findings = (r: { stdout: string }): string[] => (JSON.parse(r.stdout) as { findings: Finding[] }).findings.map((f) => `${f.ruleId}@${f.file}:${f.line}`);

  test('--dialect: the research dialect (and the FSM it names) instead of the project default', () => {
    const dir = project();
    writeFileSync(join(dir, 'r.txt'), RESEARCH);
    const fdc = ratchet(['--json', 'plan', 'lint', 'r.txt'], { cwd: dir });
    expect(fdc.status).toBe(1);
    expect(findings(fdc)).toEqual(['fsm-adherence@r.txt:2']);
    const research = ratchet(['plan', 'lint', 'r.txt', '--dialect', 'protocols/research.dialect.json'], { cwd: dir });
    expect(research.stdout).toContain('✔ r.txt: no problems');
    expect(research.status).toBe(0);
  });

  test('a dialect with several problems: exit 2, every problem on its own line in file order', () => {
    const dir = project();
    const dialect = JSON.parse(readFileSync(join(dir, 'protocols/fdc.dialect.json'), 'utf8')) as { fsm: string; commands: Record<string, { symbol: string }> };
    dialect.fsm = 'protocols/fdc.fsm.json';
    dialect.commands.set_plan!.symbol = 'nope_op';
    dialect.commands.read_file!.symbol = 'zzz_op';
    writeFileSync(join(dir, 'bad.dialect.json'), JSON.stringify(dialect, null, 2));
    writeFileSync(join(dir, 'p.txt'), 'set_plan x\nrun_in_bash_session close\n');
    const r = ratchet(['plan', 'lint', 'p.txt', '--dialect', 'bad.dialect.json'], { cwd: dir });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/bad\.dialect\.json:\d+:\d+: invalid dialect: symbol "nope_op" is not in the FSM's alphabet/);
    expect(lines[1]).toMatch(/bad\.dialect\.json:\d+:\d+: invalid dialect: symbol "zzz_op" is not in the FSM's alphabet/);
    const json = ratchet(['--json', '--quiet', 'plan', 'lint', 'p.txt', '--dialect', 'bad.dialect.json'], { cwd: dir });
    const error = (JSON.parse(json.stdout) as { error: { problems: { line: number }[] } }).error;
    expect(error.problems.map((p) => p.line)).toEqual([...error.problems.map((p) => p.line)].sort((a, b) => a - b));
    expect(error.problems).toHaveLength(2);
  });

  test('--fsm: another plan machine over the same dialect', () => {
    const dir = project();
    // A read-only variant of the fdc machine: no write_op, delete_op or move_op in EXECUTING.
    const fsm = JSON.parse(readFileSync(join(dir, 'protocols/fdc.fsm.json'), 'utf8')) as { id: string; transitions: Record<string, Record<string, string>> };
    fsm.id = 'fdc-read-only';
    for (const symbol of ['write_op', 'delete_op', 'move_op']) delete fsm.transitions.EXECUTING![symbol];
    writeFileSync(join(dir, 'read-only.fsm.json'), JSON.stringify(fsm));
    writeFileSync(join(dir, 'p.txt'), 'set_plan x\nplan_step_complete go\nread_file protocols/fdc.fsm.json\ncreate_file_with_block out.txt\nrun_in_bash_session close\n');
    expect(ratchet(['plan', 'lint', 'p.txt'], { cwd: dir }).status).toBe(0);
    const r = ratchet(['--json', 'plan', 'lint', 'p.txt', '--fsm', 'read-only.fsm.json'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(findings(r)).toEqual(['fsm-adherence@p.txt:4']);
    expect(r.stdout).toContain('create_file_with_block (write_op) is not allowed in state EXECUTING');
  });

  test('--root: the simulated file system and the call_plan confinement come from the root', () => {
    const dir = project();
    mkdirSync(join(dir, 'sub/src'), { recursive: true });
    writeFileSync(join(dir, 'sub/src/a.ts'), 'x');
    writeFileSync(join(dir, 'outside.txt'), 'set_plan o\nplan_step_complete go\nrun_in_bash_session close\n');
    writeFileSync(join(dir, 'sub/p.txt'), 'set_plan x\nplan_step_complete go\nread_file src/a.ts\nread_file examples/plans/broken.txt\ncall_plan outside.txt\nrun_in_bash_session close\n');
    const r = ratchet(['--json', 'plan', 'lint', 'sub/p.txt', '--root', 'sub'], { cwd: dir });
    expect(r.status).toBe(1);
    // Paths (file arguments and call_plan targets) are relative to the root: src/a.ts exists there,
    // examples/ and outside.txt do not.
    expect(findings(r)).toEqual(['file-not-found@p.txt:4', 'call-plan-not-found@p.txt:5']);
    // The same plan from the project root: examples/ and outside.txt exist, src/a.ts does not.
    const fromTop = ratchet(['--json', 'plan', 'lint', 'sub/p.txt'], { cwd: dir });
    expect(findings(fromTop)).toEqual(['file-not-found@sub/p.txt:3']);
    // A plan outside the given root is a usage error.
    expect(ratchet(['plan', 'lint', 'outside.txt', '--root', 'sub'], { cwd: dir }).status).toBe(2);
  });

  test('--format stylish (the default), json and sarif each print their own document', () => {
    const dir = project();
    const stylish = ratchet(['plan', 'lint', 'examples/plans/broken.txt', '--format', 'stylish'], { cwd: dir });
    expect(stylish.stdout).toMatch(/^examples\/plans\/broken\.txt\n {2}3:11 +error +read_file/);
    expect(stylish.stdout).toBe(ratchet(['plan', 'lint', 'examples/plans/broken.txt'], { cwd: dir }).stdout);
    expect(JSON.parse(ratchet(['plan', 'lint', 'examples/plans/broken.txt', '--format', 'json'], { cwd: dir }).stdout)).toMatchObject({ errorCount: 6, warningCount: 0 });
    expect(JSON.parse(ratchet(['plan', 'lint', 'examples/plans/broken.txt', '--format', 'sarif'], { cwd: dir }).stdout)).toMatchObject({ version: '2.1.0' });
    expect(ratchet(['plan', 'lint', 'examples/plans/broken.txt', '--format', 'xml'], { cwd: dir }).status).toBe(2);
  });

  test('registry entries that lead out of the project are refused at lint time: "..", absolute, a symbolic link', () => {
    const dir = project();
    const outside = tempDir('ratchet-outside-');
    writeFileSync(join(outside, 'evil.txt'), 'set_plan evil\nplan_step_complete go\nrun_in_bash_session close\n');
    mkdirSync(join(dir, 'plans'));
    symlinkSync(join(outside, 'evil.txt'), join(dir, 'plans/link.txt'));
    mkdirSync(join(dir, 'knowledge_core'), { recursive: true });
    writeFileSync(
      join(dir, 'knowledge_core/plan_registry.json'),
      JSON.stringify({ schemaVersion: 1, plans: { up: '../evil.txt', abs: join(outside, 'evil.txt'), link: 'plans/link.txt' } }),
    );
    writeFileSync(join(dir, 'main.txt'), 'set_plan x\nplan_step_complete go\ncall_plan up\ncall_plan abs\ncall_plan link\ncall_plan plans/link.txt\nrun_in_bash_session close\n');
    const r = ratchet(['--json', 'plan', 'lint', 'main.txt'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(findings(r)).toEqual(['call-plan-outside-root@main.txt:3', 'call-plan-outside-root@main.txt:4', 'call-plan-outside-root@main.txt:5', 'call-plan-outside-root@main.txt:6']);
    expect(r.stdout).toContain('the registry entry \\"up\\" points outside the project root');
    expect(r.stdout).toContain('symbolic link');
    // Registering the link is refused as well.
    const reg = ratchet(['plan', 'registry', 'register', 'evil', 'plans/link.txt', '--force'], { cwd: dir });
    expect(reg.status).toBe(2);
    expect(reg.stderr).toContain('symbolic link');
  });

  test('files under a linked directory inside the project exist for lint; links out are path-outside-root; loops and broken links do not hang or count', () => {
    const dir = project();
    const outside = tempDir('ratchet-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'x');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/a.txt'), 'a');
    symlinkSync(join(dir, 'src'), join(dir, 'lib'));
    symlinkSync(dir, join(dir, 'src/loop'));
    symlinkSync(outside, join(dir, 'out'));
    symlinkSync(join(dir, 'x1'), join(dir, 'x2'));
    symlinkSync(join(dir, 'x2'), join(dir, 'x1'));
    symlinkSync(join(dir, 'nothing'), join(dir, 'broken'));
    writeFileSync(join(dir, 'p.txt'), 'set_plan x\nplan_step_complete go\nread_file lib/a.txt\nread_file src/a.txt\nread_file out/secret.txt\nread_file broken\nrun_in_bash_session close\n');
    const r = ratchet(['--json', 'plan', 'lint', 'p.txt'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(findings(r)).toEqual(['path-outside-root@p.txt:5', 'file-not-found@p.txt:6']);
  });

  test('a file in a tooling directory exists when named, though globs leave such directories out', () => {
    const dir = project();
    mkdirSync(join(dir, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/pkg/package.json'), '{}');
    writeFileSync(join(dir, 'p.txt'), 'set_plan x\nplan_step_complete go\nread_file node_modules/pkg/package.json\nread_file node_modules/pkg/nothing.json\nfor_each_file **/package.json\n  read_file {file}\nrun_in_bash_session close\n');
    const r = ratchet(['--json', 'plan', 'lint', 'p.txt'], { cwd: dir });
    expect(findings(r)).toEqual(['file-not-found@p.txt:4', 'empty-glob@p.txt:5']);
  });

  test('a plan named on the command line that a symbolic link leads out of the project: exit 2, not linted', () => {
    const dir = project();
    const outside = tempDir('ratchet-outside-');
    writeFileSync(join(outside, 'evil.txt'), 'set_plan evil\nplan_step_complete go\nrun_in_bash_session close\n');
    symlinkSync(join(outside, 'evil.txt'), join(dir, 'linked.txt'));
    symlinkSync(outside, join(dir, 'elsewhere'));
    for (const plan of ['linked.txt', 'elsewhere/evil.txt']) {
      const r = ratchet(['plan', 'lint', plan], { cwd: dir });
      expect(r.status, plan).toBe(2);
      expect(r.stderr, plan).toContain('through a symbolic link to');
      expect(r.stdout, plan).not.toContain('no problems');
    }
    const up = ratchet(['plan', 'lint', join(outside, 'evil.txt')], { cwd: dir });
    expect(up.status).toBe(2);
    expect(up.stderr).toContain('outside the project root');
  });

  test('--registry: another registry file, for register, list and lint alike', () => {
    const dir = project();
    expect(ratchet(['plan', 'registry', 'register', 'tests', 'examples/plans/write-tests.txt', '--registry', 'conf/plans.json'], { cwd: dir }).status).toBe(0);
    expect(existsSync(join(dir, 'knowledge_core/plan_registry.json'))).toBe(false);
    expect(JSON.parse(ratchet(['--json', 'plan', 'registry', 'list', '--registry', 'conf/plans.json'], { cwd: dir }).stdout)).toMatchObject({ plans: [{ name: 'tests' }] });
    writeFileSync(join(dir, 'by-name.txt'), 'set_plan x\nplan_step_complete\ncreate_file_with_block src/greet.js\ncall_plan tests\nrun_in_bash_session close\n');
    expect(ratchet(['plan', 'lint', 'by-name.txt', '--registry', 'conf/plans.json'], { cwd: dir }).status).toBe(0);
    // Without it the name is unknown (and no file is called "tests").
    expect(findings(ratchet(['--json', 'plan', 'lint', 'by-name.txt'], { cwd: dir }))).toEqual(['call-plan-not-found@by-name.txt:4']);
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
