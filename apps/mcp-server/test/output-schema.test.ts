import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fillPostMortem } from '../../../tests/helpers.js';
import { annotationsOf } from '../src/annotations.js';
import { TOOLS } from '../src/index.js';
import { call, connect, taskProject, type Connected } from './helpers.js';

/**
 * Issue 32: every tool declares an outputSchema, annotations and a title. One project, one server
 * with every tool: each tool runs for real (the scenario below reaches a success of each), and what
 * it returned is validated with ajv against the outputSchema tools/list declared for it.
 */
let dir: string;
let server: Connected;
const validators = new Map<string, ValidateFunction>();
const validated = new Set<string>();
let listed: Awaited<ReturnType<Connected['client']['listTools']>>['tools'];

beforeAll(async () => {
  dir = taskProject();
  server = await connect(dir, { RATCHET_MCP_TOOLS: 'all' });
  listed = (await server.client.listTools()).tools;
  // strict: a keyword ajv does not know is an error in the schema, not silently ignored.
  const ajv = new Ajv({ strict: true, allErrors: true });
  for (const tool of listed) validators.set(tool.name, ajv.compile(tool.outputSchema!));
}, 60_000);
afterAll(async () => {
  await server.close();
});

/** Calls a tool, requires success, and validates its structuredContent against its outputSchema. */
async function run(name: string, args: Record<string, unknown> = {}, refused = false): Promise<Record<string, unknown>> {
  const r = await call(server, name, args);
  expect(r.isError === true, `${name}: ${JSON.stringify(r.content).slice(0, 600)}`).toBe(refused);
  const validate = validators.get(name)!;
  expect(validate(r.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  validated.add(name);
  return r.structuredContent!;
}

describe('tools/list', () => {
  test('every tool has a title, annotations from COMMAND_EFFECTS, an object outputSchema, and no per-tool $schema line', () => {
    expect(listed.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of listed) {
      const spec = TOOLS.find((t) => t.name === tool.name)!;
      expect(tool.title, tool.name).toBe(spec.title);
      expect(tool.annotations, tool.name).toEqual(annotationsOf(spec));
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(JSON.stringify(tool.inputSchema)).not.toContain('json-schema.org');
      expect(JSON.stringify(tool.outputSchema)).not.toContain('"$ref":"https:');
    }
    const byName = (n: string) => listed.find((t) => t.name === n)!.annotations!;
    // Reads are read-only; a write that only adds is not destructive; one that removes is.
    expect(byName('run_status')).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName('run_done')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName('memory_prune')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName('turn_commit')).toMatchObject({ idempotentHint: true });
    // campaign_ready writes only with claim: the tool as a whole is not read-only.
    expect(byName('campaign_ready').readOnlyHint).toBe(false);
  });

  test("a result that breaks its tool's outputSchema is caught (the check can fail)", () => {
    const validate = validators.get('run_status')!;
    expect(validate({ ok: true })).toBe(false);
    expect(validate({ ok: 'yes' })).toBe(false);
    expect(validators.get('memory_link')!({ ok: true, from: 3 })).toBe(false);
    // A refusal document (isError results carry it) is admitted by every schema.
    expect(validators.get('memory_link')!({ ok: false, error: { code: 'x', message: 'y' } })).toBe(true);
  });
});

describe('every tool, run for real, returns what its outputSchema says', () => {
  test('task lifecycle, plans, protocols, research', { timeout: 120_000 }, async () => {
    await run('task_start', { task_id: 'T-1', network: false });
    await run('plan_lint', { plan: 'plans/main.txt' });
    await run('plan_analyze', { plan: 'plans/main.txt' });
    await run('run_plan', { plan: 'plans/main.txt' });
    for (let i = 0; i < 20; i++) {
      const next = await run('run_next');
      if (next.state !== 'EXECUTING') break;
      await run('run_done', { message: `step ${i + 1}` });
    }
    await run('run_status');
    await run('task_close', { task_id: 'T-1' });
    writeFileSync(join(dir, 'postmortems/T-1.md'), fillPostMortem(readFileSync(join(dir, 'postmortems/T-1.md'), 'utf8')));
    await run('lessons_extract', { postmortem: 'postmortems/T-1.md' });
    await run('lessons_list');
    await run('lessons_apply', { dry_run: true });
    await run('task_submit', { task_id: 'T-1' });
    await run('task_start', { task_id: 'T-2', network: false });
    await run('research_plan', { topic: 'caching' });
    // Failing the cycle is the one way out that needs no research done: exit 1 (isError), its document still typed.
    await run('research_done', { failed: true, message: 'no sources' }, true);
    await run('plan_registry_register', { name: 'again', path: 'plans/sub.txt' });
    await run('plan_registry_deregister', { name: 'again' });
    await run('protocol_update', { action: 'add-tool', protocol_id: 'fdc', tool: 'ratchet plan analyze', dry_run: true });
    await run('protocol_compile', { check: true });
  });

  test('campaigns, workspaces, memory', { timeout: 120_000 }, async () => {
    await run('campaign_create', { objective: 'ship the docs', framework: 'none' });
    await run('campaign_phase', { event: 'explored' });
    const tasks = [
      { seq: '001', slug: 'outline', delta: ['docs/outline.md'], verify: 'true' },
      { seq: '002', slug: 'write', delta: ['docs/guide.md'], verify: 'true', depends: '001' },
    ];
    await run('campaign_add_tasks', { plan: { objective: 'ship the docs', tasks } });
    await run('campaign_status');
    await run('campaign_cascade_status');
    await run('campaign_waves');
    await run('campaign_ready', { claim: 'b1', lease: '15m' });
    await run('campaign_heartbeat', { runner: 'b1' });
    await run('workspace_create', { seq: '001', runner: 'b1' });
    await run('workspace_show', { seq: '001' });
    await run('workspace_list');
    await run('workspace_finish', { seq: '001', runner: 'b1', outcome: 'block', text: 'sphinx-build is not installed' });
    await run('campaign_update_task', { seq: '1', status: 'blocked', runner: 'b1', reason: 'sphinx-build is not installed' });
    await run('campaign_propagate_blocks');
    await run('memory_observe');
    await run('campaign_complete', { force: true });
    await run('memory_add_failure', { trigger: 'EADDRINUSE: port 3000 already in use', fix: 'kill the old dev server', cost: 1500, name: 'port-3000' });
    await run('memory_add_pattern', { trigger: 'vitest --project flag selects a workspace project', insight: 'run one project, not the suite', saved: 600, name: 'one-project' });
    await run('memory_query', { topic: 'Error: listen EADDRINUSE 127.0.0.1:3000' });
    await run('memory_feedback', { name: 'port-3000', helped: true });
    await run('memory_link', { from: 'one-project', to: 'port-3000', type: 'variant' });
    await run('memory_stats');
    await run('memory_prune', { dry_run: true });
  });

  test('flows and JIXO', { timeout: 120_000 }, async () => {
    mkdirSync(join(dir, 'fl'));
    writeFileSync(join(dir, 'fl/s0.md'), '# Start\n');
    writeFileSync(join(dir, 'fl/s1.md'), '# Split\n');
    const flow = { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'Start', content: 's0.md' }, { id: '1', title: 'Split', type: 'PARALLEL', content: 's1.md', branches: [{ id: 'a', title: 'A' }] }] };
    writeFileSync(join(dir, 'fl/mini.flow.json'), JSON.stringify(flow));
    await run('flow_list');
    await run('flow_start', { flow: 'fl/mini.flow.json', session: 'm1' });
    await run('flow_advance', { session: 'm1' });
    await run('flow_complete_branch', { session: 'm1', branch: '1:a' });
    await run('flow_status', { session: 'm1' });
    await run('flow_halt', { session: 'm1', reason: 'need the audience' });

    const L = '.jixo/docs.log.md';
    const J = '.jixo/docs.job.md';
    mkdirSync(join(dir, '.jixo'));
    writeFileSync(join(dir, J), '---\nname: docs\n---\n\nWrite docs.\n');
    writeFileSync(join(dir, L), '---\ntitle: "Docs"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending\n\n## Work Log\n');
    await run('jixo_check', { file: L });
    await run('jixo_task_list', { log: L });
    await run('jixo_task_lock', { log: L, id: '1', runner: 'worker' });
    await run('jixo_task_finish', { log: L, id: '1', runner: 'worker', outcome: 'fail', summary: 'broke' });
    await run('jixo_triage', { job: J, runner: 'planner' });
    await run('jixo_lock', { log: L, runner: 'planner' });
    await run('jixo_task_add', { log: L, runner: 'planner', id: '3', title: 'Reference' });
    await run('jixo_task_edit', { log: L, runner: 'planner', action: 'retry', id: '1' });
    await run('jixo_log_add', { log: L, runner: 'planner', objective: 'Re-plan', summary: 'retried 1, added 3' });
    await run('jixo_unlock', { log: L, runner: 'planner' });
    await run('jixo_exit', { log: L, runner: 'worker', code: '2', reason: 'standing by' });
    await run('jixo_clarify', { job: J, id: 'q1', question: 'Which audience?' });
  });

  test('goals, actions, questions, stories, the Scratch Page, proposals, turns', { timeout: 120_000 }, async () => {
    await run('turn_start', { turn: 't1' });
    await run('goals_add', { title: 'Ship the beta', priority: 5 });
    await run('goals_list');
    await run('goals_progress', { id: 'g1', set: 0.5, evidence: ['docs/beta.md'] });
    await run('goals_plan', { action: 'start', goal: 'g1', text: 'Ship it.\n\n## Step 1: Build\nSuccess Criteria: the build passes\nActions: run the build\nParallelizable with: None\n' });
    await run('goals_plan', { action: 'step', plan: 'pl1', step: 1, event: 'start' });
    await run('actions_add', { type: 'agent_task', title: 'Write the migration' });
    const listedActions = (await run('actions_list')) as { actions: { id: string }[] };
    const id = listedActions.actions[0]!.id;
    await run('actions_update', { action: 'update', id, priority: 3 });
    await run('actions_complete', { id, evidence: ['migrations/001.sql'] });
    await run('questions_add', { text: 'Which users churn first?' });
    await run('stories_update', { question: 'q1', narrative: 'Churn starts at onboarding' });
    await run('scratch_add', { content: 'signup p95 doubled', source: 'tool:grafana' });
    await run('scratch_update', { action: 'expire' });
    await run('proposals_submit', { kind: 'deprecate', type_id: 'research', rationale: 'use agent_task' });
    await run('turn_trace', { action: 'event', kind: 'Decision', summary: 'keep the old API' });
    await run('turn_assess', { limit: 5 });
    await run('turn_commit', { commit: { turn_id: 't1', progress: [], completed_actions: [], new_actions: [], story_updates: [] } });
    await run('turn_end', { summary: 'done' });
  });

  test('…and that was every tool', () => {
    expect([...validated].sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });
});
