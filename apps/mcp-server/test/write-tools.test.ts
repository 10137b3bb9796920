import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_EFFECTS } from '@ratchet/cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOOLS } from '../src/index.js';
import { call, connect, errorText, ok, ratchet, tempDir, type Connected } from './helpers.js';

/**
 * Issue 28: inside Claude Code's sandbox the agent's shell cannot write Ratchet's state, so every
 * write the agent may make needs its MCP tool. Each tool added for it runs here against a real
 * project through the real server, and the state it changed is read back.
 */
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));

test('every write command of COMMAND_EFFECTS names an MCP tool that exists, and runs a command that says so', () => {
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const missing: string[] = [];
  for (const [command, entry] of Object.entries(COMMAND_EFFECTS)) {
    if (entry.mcp === undefined) continue;
    const tool = byName.get(entry.mcp);
    if (tool === undefined) missing.push(`${command} -> ${entry.mcp}`);
    else expect(tool.commands, `${entry.mcp} runs ${command}`).toContain(command);
  }
  expect(missing).toEqual([]);
  // And the other way: every command a tool runs is in the table, never one that is the user's.
  for (const tool of TOOLS) for (const command of tool.commands) expect(['read', 'write', 'function'], `${tool.name}: ${command}`).toContain(typeof COMMAND_EFFECTS[command]?.effect === 'function' ? 'function' : COMMAND_EFFECTS[command]?.effect);
});

let dir: string;
let server: Connected;
const read = (path: string): string => readFileSync(join(dir, path), 'utf8');
const json = (path: string): Record<string, unknown> => JSON.parse(read(path)) as Record<string, unknown>;

beforeAll(async () => {
  dir = tempDir('ratchet-mcp-writes-');
  ratchet(['init', '--quiet'], dir);
  server = await connect(dir, { RATCHET_MCP_TOOLS: 'all' });
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('plans and protocols', () => {
  test('plan_registry_register and _deregister change knowledge_core/plan_registry.json; a plan outside the project is refused', { timeout: 60_000 }, async () => {
    mkdirSync(join(dir, 'plans'), { recursive: true });
    writeFileSync(join(dir, 'plans/sub.txt'), 'set_plan sub\nplan_step_complete go\n');
    await ok(server, 'plan_registry_register', { name: 'sub', path: 'plans/sub.txt' });
    expect(read('knowledge_core/plan_registry.json')).toContain('plans/sub.txt');
    expect(errorText(await call(server, 'plan_registry_register', { name: 'evil', path: '../outside.txt' }))).toMatch(/outside|inside/);
    await ok(server, 'plan_registry_deregister', { name: 'sub' });
    expect(read('knowledge_core/plan_registry.json')).not.toContain('plans/sub.txt');
  });

  test('protocol_update edits a protocol (dry_run writes nothing); protocol_compile renders it into AGENTS.md; check reports stale', { timeout: 60_000 }, async () => {
    await ok(server, 'protocol_compile', {});
    const protocolFile = readdirSync(join(dir, 'protocols')).find((f) => f.startsWith('02-'))!;
    const id = (JSON.parse(read(`protocols/${protocolFile}`)) as { protocol_id: string }).protocol_id;
    const before = read(`protocols/${protocolFile}`);
    await ok(server, 'protocol_update', { action: 'add-tool', protocol_id: id, tool: 'ratchet plan analyze', dry_run: true });
    expect(read(`protocols/${protocolFile}`)).toBe(before);
    await ok(server, 'protocol_update', { action: 'add-tool', protocol_id: id, tool: 'ratchet plan analyze' });
    expect(read(`protocols/${protocolFile}`)).toContain('ratchet plan analyze');
    // The protocol changed, AGENTS.md did not: --check finds it stale (a result, not a refusal).
    const stale = await call(server, 'protocol_compile', { check: true });
    expect(stale.isError).toBeFalsy();
    expect(stale.structuredContent).toMatchObject({ ok: false });
    await ok(server, 'protocol_compile', {});
    expect(read('AGENTS.md')).toContain('ratchet plan analyze');
    expect(errorText(await call(server, 'protocol_update', { action: 'update-rule', protocol_id: id }))).toContain('rule_id is required for action update-rule');
  });
});

describe('campaigns, workspaces and memory', () => {
  test('create, claim with a runner, workspace_create/finish with it (another runner refused), phase, observe, link, prune, complete', { timeout: 120_000 }, async () => {
    await ok(server, 'campaign_create', { objective: 'ship the docs', framework: 'none' });
    expect(await ok(server, 'campaign_phase', { event: 'explored', reason: 'two explorers done' })).toMatchObject({ ok: true });
    const plan = { objective: 'ship the docs', tasks: [{ seq: '001', slug: 'outline', delta: ['docs/outline.md'], verify: 'true' }, { seq: '002', slug: 'write', delta: ['docs/guide.md'], verify: 'true' }] };
    await ok(server, 'campaign_add_tasks', { plan });
    await ok(server, 'campaign_ready', { claim: 'b1' });
    expect(errorText(await call(server, 'workspace_create', { seq: '001', runner: 'b2' }))).toContain('b1');
    await ok(server, 'workspace_create', { seq: '001', runner: 'b1' });
    expect(readdirSync(join(dir, '.ratchet/workspace')).some((f) => f.startsWith('001_outline'))).toBe(true);
    await ok(server, 'workspace_finish', { seq: '001', runner: 'b1', outcome: 'complete', text: 'the outline' });
    await ok(server, 'campaign_update_task', { seq: '1', status: 'complete', runner: 'b1' });
    await ok(server, 'campaign_ready', { claim: 'b2' });
    await ok(server, 'workspace_create', { seq: '002', runner: 'b2' });
    await ok(server, 'workspace_finish', { seq: '002', runner: 'b2', outcome: 'block', text: 'sphinx is not installed' });
    await ok(server, 'campaign_update_task', { seq: '2', status: 'blocked', runner: 'b2', reason: 'sphinx is not installed' });
    // Complete is refused before the observer ran (FTL: observe before COMPLETE).
    expect((await call(server, 'campaign_complete', {})).isError).toBe(true);
    await ok(server, 'memory_observe', {});
    const memory = read('.ratchet/memory.json');
    expect(memory).toContain('sphinx is not installed');
    const names = (JSON.parse(memory) as { failures: { name: string }[]; patterns: { name: string }[] }).failures.map((f) => f.name);
    await ok(server, 'memory_add_pattern', { trigger: 'sphinx-build: command not found in docs/Makefile', insight: 'pip install sphinx before make html', saved: 600, name: 'sphinx-first' });
    await ok(server, 'memory_link', { from: 'sphinx-first', to: names[0]!, type: 'solves' });
    expect(read('.ratchet/memory.json')).toContain('solves');
    const dry = await ok(server, 'memory_prune', { min_importance: 100, dry_run: true });
    expect(JSON.stringify(dry)).toContain('sphinx-first');
    expect(read('.ratchet/memory.json')).toContain('sphinx-first');
    await ok(server, 'memory_prune', { min_importance: 100 });
    expect(read('.ratchet/memory.json')).not.toContain('sphinx-first');
    await ok(server, 'campaign_complete', {});
    expect(existsSync(join(dir, '.ratchet/archive'))).toBe(true);
    expect(readdirSync(join(dir, '.ratchet/archive')).some((f) => f.endsWith('.json'))).toBe(true);
  });
});

describe('JIXO: the Planner edits the roadmap through the tools', () => {
  const L = '.jixo/docs.log.md';
  const J = '.jixo/docs.job.md';
  test('a failed task elects a Planner, which edits, adds, depends, retries, cancels, removes, titles, logs and exits; a runner nobody elected is refused', { timeout: 120_000 }, async () => {
    mkdirSync(join(dir, '.jixo'));
    writeFileSync(join(dir, J), '---\nname: docs\n---\n\nWrite docs.\n');
    writeFileSync(join(dir, L), '---\ntitle: "_待定_"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending\n- [ ] 3. Reference\n  - status: Pending\n\n## Work Log\n');
    await ok(server, 'jixo_task_lock', { log: L, id: '1', runner: 'worker' });
    await ok(server, 'jixo_task_finish', { log: L, id: '1', runner: 'worker', outcome: 'fail', summary: 'broke' });
    expect(await ok(server, 'jixo_triage', { job: J, runner: 'planner' })).toMatchObject({ role: 'Planner' });
    const rogue = await call(server, 'jixo_task_edit', { log: L, runner: 'rogue', action: 'edit', id: '2', title: 'Other' });
    expect(errorText(rogue)).toMatch(/planner/i);
    await ok(server, 'jixo_lock', { log: L, runner: 'planner' });
    await ok(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'title', title: 'Document the CLI' });
    await ok(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'edit', id: '2', title: 'Tutorial and FAQ' });
    await ok(server, 'jixo_task_add', { log: L, runner: 'planner', id: '4', title: 'Index' });
    await ok(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'depends', id: '4', on: ['2', '3'] });
    await ok(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'retry', id: '1' });
    await ok(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'cancel', id: '3', summary: 'merged into 2' });
    await ok(server, 'jixo_task_add', { log: L, runner: 'planner', id: '5', title: 'Scratch' });
    await ok(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'remove', id: '5' });
    await ok(server, 'jixo_log_add', { log: L, runner: 'planner', objective: 'Re-plan after task 1 failed', summary: 'retried 1, merged 3 into 2' });
    const text = read(L);
    expect(text).toContain('title: "Document the CLI"');
    expect(text).toContain('2. Tutorial and FAQ');
    expect(text).toMatch(/4\. Index[\s\S]*dependsOn|depends/);
    expect(text).toMatch(/3\. Reference\n\s+- status: Cancelled/);
    expect(text).not.toContain('5. Scratch');
    expect(text).toContain('Re-plan after task 1 failed');
    await ok(server, 'jixo_unlock', { log: L, runner: 'planner' });
    expect(errorText(await call(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'edit', title: 'x' }))).toContain('id is required');
    // Standby (2) is any runner's to record.
    await ok(server, 'jixo_exit', { log: L, runner: 'worker', code: '2', reason: 'nothing for me now' });
    expect(read(L)).toContain('nothing for me now');
    await ok(server, 'jixo_clarify', { job: J, id: 'q1', question: 'Which audience?' });
    expect(read(J)).toContain('Which audience?');
  });
});

describe('goals, actions, questions, stories, the Scratch Page, proposals and the turn trace', () => {
  test('each tool changes .ratchet/goals.json or the trace as its command does', { timeout: 120_000 }, async () => {
    await ok(server, 'turn_start', { turn: 't1', tokens: 100_000, tools: 40 });
    await ok(server, 'goals_add', { title: 'Ship the beta', priority: 5, metric: { signups: 120 }, constraint: ['no paid ads'] });
    await ok(server, 'goals_add', { id: 'g1', status: 'paused' });
    const goals = json('.ratchet/goals.json') as { goals: Record<string, { title: string; status: string; metrics?: unknown }> | { id: string; title: string; status: string }[] };
    expect(JSON.stringify(goals.goals)).toMatch(/Ship the beta[\s\S]*paused|paused[\s\S]*Ship the beta/);
    expect(JSON.stringify(goals.goals)).toContain('signups');

    await ok(server, 'goals_plan', { action: 'start', text: 'Measure signups before changing the funnel.\n\n## Step 1: Measure\nSuccess Criteria: the numbers are in profiles/signup.json\nActions: export the signup funnel\nParallelizable with: None\n', goal: 'g1', id: 'pl1' });
    await ok(server, 'goals_plan', { action: 'step', plan: 'pl1', step: 1, event: 'start' });
    await ok(server, 'goals_plan', { action: 'step', plan: 'pl1', step: 1, event: 'succeed', evidence: ['profiles/signup.json'] });
    expect(read('.ratchet/goals.json')).toContain('profiles/signup.json');

    await ok(server, 'actions_add', { type: 'agent_task', title: 'Write the migration', goal: 'g1' });
    const actionId = (JSON.parse(read('.ratchet/goals.json')) as { actions: { id: string; title: string }[] | Record<string, { id: string; title: string }> }).actions;
    const id = (Array.isArray(actionId) ? actionId : Object.values(actionId)).find((a) => a.title === 'Write the migration')!.id;
    await ok(server, 'actions_update', { action: 'update', id, title: 'Write and test the migration', priority: 4, blocking: true });
    expect(read('.ratchet/goals.json')).toContain('Write and test the migration');
    await ok(server, 'actions_update', { action: 'move', id, status: 'in_progress' });
    expect(read('.ratchet/goals.json')).toMatch(/"status": ?"in_progress"/);
    expect((await call(server, 'actions_update', { action: 'retype', id })).isError).toBe(true);

    await ok(server, 'questions_add', { text: 'Which users churn first?', goal: 'g1', priority: 2, tag: ['churn'] });
    await ok(server, 'stories_update', { question: 'q1', narrative: 'Churn starts at onboarding', criterion: ['cohort data for 3 months'] });
    expect(read('.ratchet/goals.json')).toContain('Churn starts at onboarding');

    await ok(server, 'scratch_add', { content: 'signup p95 doubled since Monday', source: 'tool:grafana', tag: ['perf'], confidence: 0.8 });
    await ok(server, 'scratch_update', { action: 'review', id: 'o1', status: 'pending_review', note: 'check the cache' });
    await ok(server, 'scratch_add', { content: 'the cache is cold after deploys', source: 'tool:grafana', id: 'o2' });
    await ok(server, 'scratch_update', { action: 'promote', id: 'o2', to: 'action', action_type: 'agent_task', title: 'Warm the cache' });
    expect(read('.ratchet/goals.json')).toContain('Warm the cache');
    await ok(server, 'scratch_update', { action: 'archive', id: 'o1' });
    await ok(server, 'scratch_update', { action: 'expire' });

    const proposal = JSON.parse(readFileSync(join(examples, 'goals/code-review.proposal.json'), 'utf8')) as Record<string, unknown>;
    await ok(server, 'proposals_submit', { proposal });
    expect(read('.ratchet/goals.json')).toContain('code_review');
    await ok(server, 'proposals_submit', { action: 'amend', id: 'p1', rationale: 'reviews come up every day' });
    expect(read('.ratchet/goals.json')).toContain('reviews come up every day');

    await ok(server, 'turn_trace', { action: 'span_start', span: 'exec', component: 'executor', tokens: 5000 });
    await ok(server, 'turn_trace', { action: 'event', kind: 'Decision', summary: 'keep the old API', span: 'exec', payload: { options: 2 } });
    await ok(server, 'turn_trace', { action: 'span_end', span: 'exec', tokens: 3120, tools: 1 });
    await ok(server, 'turn_end', { summary: 'cache planned' });
    const traces = read('.ratchet/traces.jsonl');
    expect(traces).toContain('keep the old API');
    expect(traces).toContain('cache planned');
    expect(errorText(await call(server, 'turn_trace', { action: 'event', kind: 'Decision' }))).toContain('summary is required');
  });
});

describe('hostile arguments to the new tools', () => {
  // Every path argument a model supplies is checked inside the project before the command runs.
  const OUTSIDE: [string, Record<string, unknown>][] = [
    ['plan_registry_register', { name: 'x', path: '/etc/passwd' }],
    ['plan_registry_register', { name: 'x', path: 'plans/sub.txt', registry: '../registry.json' }],
    ['protocol_compile', { out: ['../AGENTS.md'] }],
    ['protocol_update', { action: 'add-tool', protocol_id: 'fdc', tool: 'x', protocols: '/tmp' }],
    ['jixo_task_edit', { log: '../docs.log.md', runner: 'r', action: 'retry', id: '1' }],
    ['jixo_task_add', { log: '/etc/hosts', runner: 'r', title: 'x' }],
    ['jixo_log_add', { log: '../../x.log.md', runner: 'r', objective: 'o', summary: 's' }],
    ['jixo_exit', { log: '../x.log.md', runner: 'r', code: '2', reason: 'r' }],
    ['jixo_clarify', { job: '../x.job.md', id: 'q', question: 'q' }],
    ['memory_link', { from: 'a', to: 'b', type: 'solves', file: '../memory.json' }],
    ['memory_prune', { file: '/tmp/memory.json' }],
    ['memory_observe', { workspace_dir: '../ws' }],
    ['campaign_complete', { skip_observe: 'x', workspace_dir: '/tmp' }],
    ['workspace_create', { seq: '001', runner: 'b1', prior_knowledge: '../pk.json' }],
    ['goals_plan', { action: 'start', file: '/etc/passwd' }],
    ['proposals_submit', { file: '../proposal.json' }],
  ];
  test.each(OUTSIDE)('%s with a path outside the project is refused before it runs', { timeout: 60_000 }, async (name, args) => {
    const r = await call(server, name, args);
    expect(r.isError).toBe(true);
    expect(errorText(r)).toMatch(/outside|inside the project|escapes/i);
  });

  test('an action missing what it needs, an unknown action, or an option smuggled into a value is refused; nothing is written', { timeout: 60_000 }, async () => {
    const before = read('.ratchet/goals.json');
    expect(errorText(await call(server, 'scratch_update', { action: 'promote', id: 'o9' }))).toContain('to is required for action promote');
    expect(errorText(await call(server, 'goals_plan', { action: 'step', plan: 'pl1' }))).toContain('step is required for action step');
    expect((await call(server, 'actions_update', { action: 'delete', id: 'a1' })).isError).toBe(true);
    expect((await call(server, 'turn_trace', { action: 'event', kind: 'Decision', summary: 'x', extra: 1 })).isError).toBe(true);
    // A value that looks like an option stays a value: the question text, not a --force flag.
    const r = await call(server, 'questions_add', { text: '--id=q1 --status=archived' });
    expect(r.isError).toBeFalsy();
    expect(read('.ratchet/goals.json')).toContain('--id=q1 --status=archived');
    expect(read('.ratchet/goals.json')).not.toBe(before);
  });
});

test('expected_version: a goals-state write at a stale version is refused and writes nothing; at the current one it goes through', { timeout: 60_000 }, async () => {
  const version = (JSON.parse(read('.ratchet/goals.json')) as { version: number }).version;
  const before = read('.ratchet/goals.json');
  const stale = await call(server, 'questions_add', { text: 'Stale?', expected_version: version - 1 });
  expect(stale.isError).toBe(true);
  expect(read('.ratchet/goals.json')).toBe(before);
  await ok(server, 'questions_add', { text: 'Current?', expected_version: version });
  expect(read('.ratchet/goals.json')).toContain('Current?');
});
