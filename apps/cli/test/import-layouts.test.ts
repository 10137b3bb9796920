/**
 * `ratchet import` on layouts shaped like the originals' public repositories (fixtures of our own,
 * written here): the report says what Ratchet reads (and parses it with that reader), what it
 * converts and what it ignores, separately and truthfully, and finds files where the originals'
 * users keep them. A file Ratchet ignores is never parsed, so it blocks nothing; a file it reads
 * that is broken is a problem named with its place.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

async function ratchet(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve('') };
  return { code: await run(args, io), out, err };
}

function put(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

interface Report {
  system: string;
  found: string[];
  readInPlace: { path: string; by: string; checked: boolean }[];
  convert: { from: string }[];
  ignored: { path: string; why: string }[];
  problems: { file: string; line?: number; column?: number; message: string }[];
}
const reportOf = (out: string, system: string): Report => (JSON.parse(out) as { systems: Report[] }).systems.find((s) => s.system === system)!;

/** Frontal Cortex's registry as its one public repository keeps it: documentation/frontal-cortex/, in its envelope. */
const REGISTRY = `# Action Types Registry (docs-as-code baseline)
version: 0.1
registry: action_types

schema:
  description: Declarative schema for ActionType entries
  fields:
    id: string
    allowed_statuses:
      - string

items:
  - id: agent_task
    display_name: Agent Task
    allowed_owners: [agent]
    default_policies:
      requires_confirmation: false
      auto_complete: true
    allowed_statuses: [open, in_progress, done, cancelled]
    allowed_transitions:
      open: [in_progress, cancelled]
      in_progress: [done, cancelled]
    policy_handlers: {}
    deprecation_status: active

  - id: user_task
    display_name: User Task
    allowed_owners: [user]
    default_policies:
      requires_confirmation: true
      auto_complete: false
      escalation:
        after: PT24H
    allowed_statuses: [open, awaiting_confirmation, done, cancelled]
    allowed_transitions:
      open: [awaiting_confirmation, cancelled]
      awaiting_confirmation: [done, open, cancelled]
    policy_handlers:
      completion_guard: user_confirmation_required
    deprecation_status: active
`;

describe('Frontal Cortex', () => {
  test('auto finds the registry under documentation/frontal-cortex/, reads it, and says how Ratchet is pointed at it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-import-fc-'));
    put(dir, 'documentation/frontal-cortex/action_types.yaml', REGISTRY);
    put(dir, 'documentation/frontal-cortex/README.md', '# Frontal Cortex\n');
    const r = await ratchet(dir, ['--json', 'import', 'auto']);
    expect(r.code, r.err).toBe(0);
    const fc = reportOf(r.out, 'frontal-cortex');
    expect(fc.readInPlace).toEqual([{ path: 'documentation/frontal-cortex/action_types.yaml', by: expect.stringContaining('--registry documentation/frontal-cortex/action_types.yaml') as unknown, checked: true }]);
    const types = await ratchet(dir, ['actions', 'types', '--registry', 'documentation/frontal-cortex/action_types.yaml']);
    expect(types.out).toContain('2 action types, valid');
  });

  test('a registry with a transition to an undeclared status is a problem at its line; goals.yaml is ignored, not "read"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-import-fc-'));
    put(dir, 'documentation/frontal-cortex/action_types.yaml', REGISTRY.replace('in_progress: [done, cancelled]', 'in_progress: [finished, cancelled]'));
    put(dir, 'goals.yaml', 'goals: []\n');
    const r = await ratchet(dir, ['--json', 'import', 'frontal-cortex']);
    expect(r.code).toBe(2);
    const fc = reportOf(r.out, 'frontal-cortex');
    expect(fc.problems).toEqual([expect.objectContaining({ file: 'documentation/frontal-cortex/action_types.yaml', line: expect.any(Number) as unknown, message: expect.stringContaining('finished') as unknown })]);
    expect(fc.ignored.map((i) => i.path)).toEqual(['goals.yaml']);
    expect(fc.readInPlace).toEqual([]);
  });
});

describe('.claude/orchestration (caii)', () => {
  function caii(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-import-caii-'));
    for (const py of ['__init__.py', 'entry.py', 'entry_base.py', 'flow_registry.py', 'agent_chain/orchestrator.py', 'agent_chain/state.py', 'decompose/entry.py', 'tests/unit/orchestration/test_flow_registry.py', 'tests/e2e/test_reasoning.py']) put(dir, `.claude/orchestration/${py}`, 'def main():\n    pass\n');
    for (const md of ['CLAUDE.md', 'agent_chain/CLAUDE.md', 'decompose/content/decompose/analysis.md', 'outer_loop/ideal_state/content/ideal_state_capture.md']) put(dir, `.claude/orchestration/${md}`, '# step\n');
    put(dir, '.claude/orchestration/Makefile', 'test:\n\tpytest\n');
    put(dir, '.claude/orchestration/skills/perform_tdd/state/.gitkeep', '');
    // A session state file cut off mid-write: the original's, and Ratchet never reads it.
    put(dir, '.claude/orchestration/agent_chain/state/reasoning-1a2b.json', '{"schema_version": "1.0", "session_id": "1a2b", "fsm": {"state": "STEP_3"');
    put(dir, '.claude/memory/T1-clarification-memory.md', '## Section 0: Context Loaded\n');
    put(dir, '.claude/memory/.gitkeep', '');
    return dir;
  }

  test('the original\'s Python, prompts and state are listed as ignored (and why); only the agent memory files are read', async () => {
    const dir = caii();
    const r = await ratchet(dir, ['--json', 'import', 'claude-orchestration']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    const report = reportOf(r.out, 'claude-orchestration');
    expect(report.readInPlace.map((f) => f.path)).toEqual(['.claude/memory/T1-clarification-memory.md']);
    expect(report.ignored).toHaveLength(report.found.length - 1);
    const why = (path: string): string => report.ignored.find((i) => i.path === path)!.why;
    expect(why('.claude/orchestration/agent_chain/orchestrator.py')).toContain("the original's own code");
    expect(why('.claude/orchestration/agent_chain/state/reasoning-1a2b.json')).toContain('session state');
    expect(why('.claude/orchestration/decompose/content/decompose/analysis.md')).toContain('step prompts');
    expect(report.problems).toEqual([]);
  });

  test('the human report groups the ignored files by reason instead of calling them read in place', async () => {
    const r = await ratchet(caii(), ['import', 'claude-orchestration']);
    expect(r.out).toContain('claude-orchestration: 18 file(s) found: 1 read in place, 0 to convert, 17 ignored');
    expect(r.out).toMatch(/ignored +\.claude\/orchestration\/\*\*\/\*\.py: 9 files +\(the original's own code/);
    expect(r.out).not.toMatch(/read in place +\.claude\/orchestration/);
  });
});

describe('Jules (AgenticDevTools)', () => {
  const FDC_FSM = JSON.stringify({ states: ['IDLE', 'PLANNING', 'EXECUTING', 'POST_MORTEM', 'DONE'], alphabet: ['plan_op', 'step_op', 'close_op', 'submit_op', 'read_op'], transitions: { IDLE: { plan_op: 'PLANNING' }, PLANNING: { step_op: 'EXECUTING' }, EXECUTING: { step_op: 'EXECUTING', read_op: 'EXECUTING', close_op: 'POST_MORTEM' }, POST_MORTEM: { submit_op: 'DONE' } }, start_state: 'IDLE', accept_states: ['DONE'] }, null, 2);
  const ORCHESTRATOR_FSM = JSON.stringify({ states: ['START', 'ORIENTING', 'PLANNING', 'AWAITING_SUBMISSION'], initial_state: 'START', final_states: ['AWAITING_SUBMISSION'], transitions: [{ source: 'START', dest: 'ORIENTING', trigger: 'begin_task' }, { source: 'ORIENTING', dest: 'PLANNING', trigger: 'orientation_succeeded' }, { source: 'PLANNING', dest: 'AWAITING_SUBMISSION', trigger: 'plan_done' }] }, null, 2);

  function jules(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-import-jules-'));
    put(dir, 'AGENTS.md', '# AGENTS.md\n');
    put(dir, 'tooling/fdc_fsm.json', FDC_FSM);
    put(dir, 'tooling/fsm.json', ORCHESTRATOR_FSM);
    for (const py of ['__init__.py', 'fdc_cli.py', 'master_control.py', 'plan_parser.py', 'test_master_control.py']) put(dir, `tooling/${py}`, 'import json\n');
    put(dir, 'tooling/protocol_analyzer.py.txt', 'notes\n');
    put(dir, 'knowledge_core/plan_registry.json', '{"deep-research": "plans/deep_research.txt"}\n');
    put(dir, 'knowledge_core/lessons.jsonl', '');
    put(dir, 'knowledge_core/agent_meta.json', '{"model_name": "jules", "version": "1.0"}\n');
    put(dir, 'knowledge_core/protocols.ttl', '@prefix ex: <http://example.org/> .\n');
    put(dir, 'plans/deep_research.txt', 'set_plan research\n');
    put(dir, 'postmortems/.gitkeep', '');
    put(dir, 'postmortems/2025-10-07-fix-atomic-workflow.md', '# Post-Mortem\n## 3. Corrective Actions & Lessons Learned\n');
    put(dir, 'protocols/00_bootstrap.protocol.json', '{"protocol_id": "bootstrap", "description": "d", "rules": []}\n');
    put(dir, 'protocols/00_bootstrap.protocol.md', '# Bootstrap\n');
    put(dir, 'protocols/99_system_documentation.autodoc.md', '# doc\n');
    put(dir, 'protocols/protocol.context.jsonld', '{}\n');
    put(dir, 'logs/activity.log.jsonl', '{"log_id": "1", "phase": "PLANNING"}\n');
    return dir;
  }

  test('FSM definitions are parsed as fsm check parses them; post-mortems are read by lessons extract; the Python is ignored', async () => {
    const r = await ratchet(jules(), ['--json', 'import', 'jules']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    const report = reportOf(r.out, 'jules');
    const read = new Map(report.readInPlace.map((f) => [f.path, f]));
    expect(read.get('tooling/fdc_fsm.json')).toMatchObject({ checked: true, by: expect.stringContaining('ratchet fsm check') as unknown });
    expect(read.get('tooling/fsm.json')).toMatchObject({ checked: true });
    expect(read.get('postmortems/2025-10-07-fix-atomic-workflow.md')?.by).toContain('ratchet lessons extract');
    expect(read.get('knowledge_core/plan_registry.json')).toMatchObject({ checked: true });
    expect(read.get('protocols/00_bootstrap.protocol.json')).toMatchObject({ checked: true, by: 'ratchet protocol compile' });
    expect([...read.keys()].filter((p) => p.endsWith('.py'))).toEqual([]);
    expect(report.ignored.filter((i) => i.path.endsWith('.py')).map((i) => i.path)).toHaveLength(5);
    expect(report.ignored.map((i) => i.path)).toEqual(expect.arrayContaining(['protocols/99_system_documentation.autodoc.md', 'protocols/protocol.context.jsonld', 'tooling/protocol_analyzer.py.txt', 'postmortems/.gitkeep']));
    // Every file found is in exactly one list.
    expect([...report.readInPlace.map((f) => f.path), ...report.ignored.map((i) => i.path)].sort()).toEqual([...report.found].sort());
  });

  test('a broken FSM (a transition to an undeclared state) is a problem at its place, exit 2', async () => {
    const dir = jules();
    put(dir, 'tooling/fdc_fsm.json', FDC_FSM.replace('"close_op": "POST_MORTEM"', '"close_op": "POSTMORTEM"'));
    const r = await ratchet(dir, ['import', 'jules']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/tooling\/fdc_fsm\.json:\d+:\d+: error: .*POSTMORTEM/);
  });

  test('an activity log with two entries run together on one line says so, at the column where the line break is missing', async () => {
    const dir = jules();
    put(dir, 'logs/activity.log.jsonl', '{"log_id": "1"}\n{"log_id": "2"}{"log_id": "3"}\n');
    const r = await ratchet(dir, ['import', 'jules']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('logs/activity.log.jsonl:2:16: error: two JSON values run together on one line (a line break is missing before column 16)');
  });
});
