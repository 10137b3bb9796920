/**
 * A Jules user's first steps with the built CLI, on files in the original's shapes
 * (packages/plan-lint/test/fixtures/jules/): plans lint as written, the block grammar is read and
 * formatted, the plan's `# FSM:` line is honoured, FSMs in YAML work like JSON.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet, repoRoot, tempDir } from '../helpers.js';

const FIXTURES = join(repoRoot, 'packages/plan-lint/test/fixtures/jules');

/** A Jules repository: its plans, tooling/fdc_fsm.json and sources; no `ratchet init` (the bundled dialect). */
function julesRepo(): string {
  const dir = tempDir('ratchet-jules-');
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

const FSM_YAML = 'states: [IDLE, PLANNING, EXECUTING, POST_MORTEM, DONE]\nalphabet: [plan_op, step_op, submit_op, read_op, write_op, delete_op, move_op, tool_exec, close_op]\ntransitions:\n  IDLE: {plan_op: PLANNING}\n  PLANNING: {step_op: EXECUTING}\n  EXECUTING: {step_op: EXECUTING, read_op: EXECUTING, write_op: EXECUTING, delete_op: EXECUTING, move_op: EXECUTING, tool_exec: EXECUTING, close_op: POST_MORTEM}\n  POST_MORTEM: {submit_op: DONE}\nstart_state: IDLE\naccept_states: [DONE]\n';

describe('ratchet plan lint on plans the original toolchain wrote', () => {
  test('the era whose FSM alphabet is the plan lines (`run:fdc_cli.py close`) is read line by line, with --fsm and with # FSM:', () => {
    const dir = julesRepo();
    writeFileSync(join(dir, 'valid_plan.txt'), 'set_plan\nplan_step_complete\nplan_step_complete\nrun:fdc_cli.py close\nsubmit\n');
    writeFileSync(join(dir, 'invalid_plan.txt'), 'set_plan\nsubmit\nplan_step_complete\n');
    const ok = ratchet(['plan', 'lint', 'valid_plan.txt', '--fsm', 'tooling/fdc_fsm_lines.json'], { cwd: dir });
    expect(ok.stderr).toBe('tooling/fdc_fsm_lines.json: its alphabet is plan lines (set_plan, plan_step_complete, run:fdc_cli.py close, submit): each line of the plan is read as its own symbol\n');
    expect(ok.stdout).toContain('✔ valid_plan.txt: no problems');
    expect(ok.status).toBe(0);
    const bad = ratchet(['--json', 'plan', 'lint', 'invalid_plan.txt', '--fsm', 'tooling/fdc_fsm_lines.json'], { cwd: dir });
    expect(bad.status).toBe(1);
    expect((JSON.parse(bad.stdout) as { findings: { ruleId: string; line: number }[] }).findings.map((f) => [f.ruleId, f.line])).toEqual([
      ['fsm-adherence', 2],
      ['closure-mandate', 3],
    ]);
    writeFileSync(join(dir, 'named.txt'), `# FSM: tooling/fdc_fsm_lines.json\n${readFileSync(join(dir, 'valid_plan.txt'), 'utf8')}`);
    expect(ratchet(['plan', 'lint', 'named.txt'], { cwd: dir }).status).toBe(0);
  });

  test('--fsm may speak fewer commands than the dialect: the original research_fsm.json checks a research plan', () => {
    const dir = julesRepo();
    const r = ratchet(['plan', 'lint', 'research.plan.txt', '--fsm', 'tooling/research_fsm.json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // A command the FSM does not know is refused where the plan uses it, not as 17 dialect errors up front.
    writeFileSync(join(dir, 'del.txt'), 'set_plan r\nplan_step_complete\ndelete_file src/a.py\nrun_in_bash_session close\n');
    const del = ratchet(['--json', 'plan', 'lint', 'del.txt', '--fsm', 'tooling/research_fsm.json'], { cwd: dir });
    expect(del.status).toBe(1);
    expect((JSON.parse(del.stdout) as { findings: { ruleId: string; line: number }[] }).findings.map((f) => [f.ruleId, f.line])).toEqual([['fsm-adherence', 3]]);
  });

  test('both grammars lint clean with the bundled dialect (exit 0)', () => {
    const dir = julesRepo();
    for (const plan of ['line.plan.txt', 'block.plan.txt']) {
      const r = ratchet(['plan', 'lint', plan], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`✔ ${plan}: no problems`);
      expect(r.status).toBe(0);
    }
  });

  test('the # FSM: line picks the FSM: under the original one (close, then submit) a plan stopping at close fails', () => {
    const dir = julesRepo();
    const body = 'set_plan x\nplan_step_complete y\nrun_in_bash_session python tooling/fdc_cli.py close --task-id t\n';
    writeFileSync(join(dir, 'plain.txt'), body);
    writeFileSync(join(dir, 'named.txt'), `# FSM: tooling/fdc_fsm.json\n${body}`);
    expect(ratchet(['plan', 'lint', 'plain.txt'], { cwd: dir }).status).toBe(0);
    const r = ratchet(['plan', 'lint', 'named.txt', '--json'], { cwd: dir });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { ruleId: string; line: number; message: string }[] };
    expect(out.findings.map((f) => [f.ruleId, f.line])).toEqual([['fsm-adherence', 4]]);
    expect(out.findings[0]!.message).toContain('POST_MORTEM');
    // --fsm still wins over the directive.
    expect(ratchet(['plan', 'lint', 'named.txt', '--fsm', join(repoRoot, 'protocols/fdc.fsm.json')], { cwd: dir }).status).toBe(0);
  });

  test('a # FSM: line may name a YAML FSM; one naming a missing file is exit 2 at the directive', () => {
    const dir = julesRepo();
    writeFileSync(join(dir, 'tooling/fdc_fsm.yaml'), FSM_YAML);
    writeFileSync(join(dir, 'y.txt'), '# FSM: tooling/fdc_fsm.yaml\nset_plan x\nplan_step_complete y\nrun_in_bash_session close\nsubmit\n');
    expect(ratchet(['plan', 'lint', 'y.txt'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, 'gone.txt'), '\n#   FSM: tooling/nope.json\nset_plan x\n');
    const r = ratchet(['plan', 'lint', 'gone.txt'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('gone.txt:2:10: # FSM: names tooling/nope.json, which does not exist');
  });

  test('errors in a block-grammar plan name the exact line and column of the file as written', () => {
    const dir = julesRepo();
    writeFileSync(join(dir, 'b.txt'), 'set_plan\r\nx\r\n---\r\nplan_step_complete\r\ny\r\n---\r\nread_file\r\n    src/missing.py\r\n---\r\nrun_in_bash_session\r\nclose\r\n');
    const r = ratchet(['plan', 'lint', 'b.txt', '--json'], { cwd: dir });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { ruleId: string; line: number; column: number }[] };
    expect(out.findings.map((f) => [f.ruleId, f.line, f.column])).toEqual([['file-not-found', 8, 5]]);
  });
});

describe('ratchet plan fmt', () => {
  test('prints the one-line form; --write converts the file, which then lints the same', () => {
    const dir = julesRepo();
    const before = readFileSync(join(dir, 'block.plan.txt'), 'utf8');
    const printed = ratchet(['plan', 'fmt', 'block.plan.txt'], { cwd: dir });
    expect(printed.status).toBe(0);
    expect(printed.stdout).toContain('run_in_bash_session python tooling/fdc_cli.py close --task-id rename-7\nsubmit\n');
    expect(readFileSync(join(dir, 'block.plan.txt'), 'utf8')).toBe(before);
    const written = ratchet(['plan', 'fmt', 'block.plan.txt', '--write'], { cwd: dir });
    expect(written.status).toBe(0);
    expect(readFileSync(join(dir, 'block.plan.txt'), 'utf8')).toBe(printed.stdout);
    expect(ratchet(['plan', 'lint', 'block.plan.txt'], { cwd: dir }).status).toBe(0);
    expect(JSON.parse(ratchet(['plan', 'fmt', 'block.plan.txt', '--write', '--json'], { cwd: dir }).stdout)).toMatchObject({ grammar: 'line', changed: false, written: false });
  });

  test('a plan with a syntax error is refused with its place (exit 2) and left byte for byte', () => {
    const dir = julesRepo();
    const broken = 'set_plan\nx\n---\n  9lives now\n---\nrun_in_bash_session\nclose\n';
    writeFileSync(join(dir, 'broken.txt'), broken);
    const r = ratchet(['plan', 'fmt', 'broken.txt', '--write'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('broken.txt:4:3');
    expect(readFileSync(join(dir, 'broken.txt'), 'utf8')).toBe(broken);
  });

  test('a command whose arguments span several lines is not rewritten: the one-line form would lose the line breaks', () => {
    const dir = julesRepo();
    const multi = 'set_plan\nrename the module\n---\ncreate_file_with_block\nsrc/a.py\nimport os\nprint(os.getcwd())\n---\nrun_in_bash_session\nclose\n';
    writeFileSync(join(dir, 'multi.txt'), multi);
    expect(ratchet(['plan', 'fmt', 'multi.txt'], { cwd: dir }).status).toBe(0);
    const r = ratchet(['plan', 'fmt', 'multi.txt', '--write'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('multi.txt:4:1');
    expect(r.stderr).toContain('lose the line breaks');
    expect(readFileSync(join(dir, 'multi.txt'), 'utf8')).toBe(multi);
  });
});

describe('FSM definitions in YAML', () => {
  test('fsm check and fsm accept read *.yaml / *.yml like JSON', () => {
    const dir = julesRepo();
    writeFileSync(join(dir, 'fdc.fsm.yml'), FSM_YAML);
    const checked = ratchet(['fsm', 'check', 'fdc.fsm.yml'], { cwd: dir });
    expect(checked.stdout).toContain('5 states, 9 symbols');
    expect(ratchet(['fsm', 'accept', 'fdc.fsm.yml', 'plan_op', 'step_op', 'close_op', 'submit_op'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['fsm', 'accept', 'fdc.fsm.yml', 'plan_op', 'step_op', 'close_op'], { cwd: dir }).status).toBe(1);
  });

  test('problems in a YAML FSM are placed by line; malformed YAML is exit 2 with file and line', () => {
    const dir = julesRepo();
    writeFileSync(join(dir, 'bad.fsm.yaml'), 'states: [A, B]\nalphabet: [go]\ntransitions:\n  A: {go: C}\nstart_state: A\naccept_states: [B]\n');
    const bad = ratchet(['fsm', 'check', 'bad.fsm.yaml', '--json'], { cwd: dir });
    expect(bad.status).toBe(1);
    const json = JSON.parse(bad.stdout) as { files: { diagnostics: { ruleId: string; line?: number }[] }[] };
    expect(json.files[0]!.diagnostics.find((d) => d.ruleId === 'undefined-state')?.line).toBe(4);
    writeFileSync(join(dir, 'broken.yaml'), 'states: [A, B]\nalphabet: [go\ntransitions: {}\n');
    const broken = ratchet(['fsm', 'check', 'broken.yaml'], { cwd: dir });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/broken\.yaml:3:1: invalid YAML/);
    writeFileSync(join(dir, 'proto.yaml'), 'states: [A]\n__proto__: {x: 1}\n');
    const proto = ratchet(['fsm', 'check', 'proto.yaml'], { cwd: dir });
    expect(proto.status).toBe(2);
    expect(proto.stderr).toContain('proto.yaml:2:1');
  });
});

describe('a lifecycle written in YAML', () => {
  /** The project's lifecycle (protocols/orchestrator.fsm.json) rewritten as YAML, the JSON removed. */
  function yamlLifecycle(edit: (yaml: string) => string = (y) => y): string {
    const dir = tempDir('ratchet-jules-lifecycle-');
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    const fsm = JSON.parse(readFileSync(join(dir, 'protocols/orchestrator.fsm.json'), 'utf8')) as Record<string, unknown>;
    delete fsm.$schema;
    const yaml = Object.entries(fsm)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n');
    writeFileSync(join(dir, 'protocols/orchestrator.fsm.yaml'), `${edit(yaml)}\n`);
    rmSync(join(dir, 'protocols/orchestrator.fsm.json'));
    return dir;
  }

  test('protocols/orchestrator.fsm.yaml runs the task like its JSON form', () => {
    const dir = yamlLifecycle();
    expect(ratchet(['task', 'start', '--task-id', 'y1', '--no-network', '--quiet'], { cwd: dir }).status).toBe(0);
    const status = ratchet(['run', 'status', '--json'], { cwd: dir });
    expect(status.status).toBe(0);
    expect((JSON.parse(status.stdout) as { legal: string[] }).legal.length).toBeGreaterThan(0);
    // Read and run: PLANNING has no step to execute, so run next answers with what to do and exit 1.
    const next = ratchet(['run', 'next'], { cwd: dir });
    expect(next.stdout).toContain('ratchet run plan <plan-file>');
    expect(next.status).toBe(1);
  });

  test('a YAML lifecycle without a state the orchestrator needs, or that does not parse, is exit 2 naming it', () => {
    const missing = yamlLifecycle((y) => y.replace(/"RESEARCHING",?/g, '').replace(/,\]/g, ']'));
    const r = ratchet(['task', 'start', '--task-id', 'y2', '--no-network'], { cwd: missing });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('orchestrator.fsm.yaml');
    const broken = yamlLifecycle((y) => `${y}\nstates: [unclosed`);
    const b = ratchet(['task', 'start', '--task-id', 'y3', '--no-network'], { cwd: broken });
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(/orchestrator\.fsm\.yaml:\d+:\d+/);
  });
});

describe('ratchet init and protocol compile in a repository laid out as the original', () => {
  test('init adds no protocol whose id is already there; an introduction without JSON compiles as prose', () => {
    const dir = tempDir('ratchet-jules-init-');
    cpSync(join(repoRoot, 'packages/protocol-compiler/test/fixtures/jules/protocols/00-introduction.md'), join(dir, 'protocols/00-introduction.md'), { recursive: true });
    writeFileSync(
      join(dir, 'protocols/aorp-header.protocol.json'),
      JSON.stringify({ protocol_id: 'aorp-header', description: 'The AORP header, as the original named it.', rules: [{ rule_id: 'aorp-identity', description: 'The protocol set is AORP.', enforcement: 'By name.' }] }),
    );
    const init = ratchet(['init', '--json'], { cwd: dir });
    expect(init.status).toBe(0);
    const files = (JSON.parse(init.stdout) as { files: { path: string; outcome: string }[] }).files;
    expect(files.filter((f) => f.outcome === 'skipped').map((f) => f.path)).toEqual(['protocols/00-aorp-header.protocol.json', 'protocols/00-aorp-header.protocol.md']);
    expect(files.find((f) => f.path === 'protocols/04-fdc.protocol.json')?.outcome).toBe('created');
    const compiled = ratchet(['protocol', 'compile'], { cwd: dir });
    expect(compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    // Compact (the default): the introduction by its title and the command that prints it; aorp-header once.
    const agents = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('## Jules Agent Protocol: The Hierarchical Development Cycle\n\nRead it with `ratchet protocol show 00-introduction`.');
    expect(agents.match(/^## `aorp-header`/gm)).toHaveLength(1);
    expect(ratchet(['protocol', 'show', '00-introduction'], { cwd: dir }).stdout).toContain('# Jules Agent Protocol: The Hierarchical Development Cycle');
    // Full: the introduction compiles as prose, the protocol's JSON once.
    expect(ratchet(['protocol', 'compile', '--detail', 'full'], { cwd: dir }).status).toBe(0);
    const full = readFileSync(join(dir, 'AGENTS.md'), 'utf8');
    expect(full).toContain('# Jules Agent Protocol: The Hierarchical Development Cycle');
    expect(full.match(/"protocol_id": "aorp-header"/g)).toHaveLength(1);
  });
});

describe('ratchet task start with the original agent_meta.json and activity log', () => {
  const ORCH = join(repoRoot, 'packages/orchestrator/test/fixtures/jules');

  function julesTaskRepo(): string {
    const dir = tempDir('ratchet-jules-task-');
    expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
    cpSync(join(ORCH, 'agent_meta.json'), join(dir, 'knowledge_core/agent_meta.json'));
    cpSync(join(ORCH, 'activity.log.jsonl'), join(dir, 'logs/activity.log.jsonl'));
    return dir;
  }

  test('a task starts: one warning per bad log line (file:line), old lines kept byte for byte, TASK_START appended', () => {
    const dir = julesTaskRepo();
    const before = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8');
    const r = ratchet(['task', 'start', '--task-id', 'jules-1', '--no-network'], { cwd: dir });
    expect(r.stderr).toContain('warning: logs/activity.log.jsonl:2: unexpected');
    expect(r.stderr.match(/^warning: /gm)).toHaveLength(1);
    expect(r.stdout).toContain('L1 agent        Jules 4.0.0');
    expect(r.status).toBe(0);
    const after = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const last = JSON.parse(after.trimEnd().split('\n').pop()!) as { action: { type: string }; outcome: { status: string } };
    expect(last).toMatchObject({ action: { type: 'TASK_START' }, outcome: { status: 'SUCCESS' } });
  });

  test('a log that cannot be written leaves the task where it was (not half-started), exit 2', () => {
    const dir = julesTaskRepo();
    rmSync(join(dir, 'logs/activity.log.jsonl'));
    mkdirSync(join(dir, 'logs/activity.log.jsonl'));
    const r = ratchet(['task', 'start', '--task-id', 'jules-2', '--no-network'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('activity.log.jsonl');
    const status = JSON.parse(ratchet(['run', 'status', '--json'], { cwd: dir }).stdout) as { session: { state: string } };
    expect(status.session.state).toBe('START');
    // Once the log is writable again the same task starts normally.
    rmSync(join(dir, 'logs/activity.log.jsonl'), { recursive: true });
    expect(ratchet(['task', 'start', '--task-id', 'jules-2', '--no-network'], { cwd: dir }).status).toBe(0);
  });
});
