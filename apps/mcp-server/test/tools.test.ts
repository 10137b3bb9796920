import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, connect, ok, ratchet, tempDir, type Connected } from './helpers.js';

/**
 * The standard and all presets' argument mapping, one server process: each call must reach its
 * command with the options it was given (the results and files show they arrived).
 */
const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
let dir: string;
let server: Connected;

beforeAll(async () => {
  dir = tempDir('ratchet-mcp-tools-');
  ratchet(['init', '--quiet'], dir);
  server = await connect(dir, { RATCHET_MCP_TOOLS: 'all' });
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('campaigns and workspaces', () => {
  test('create, add tasks from an inline plan (standard input from the argument), status, waves, claim, workspace', { timeout: 60_000 }, async () => {
    await ok(server, 'campaign_create', { objective: 'ship the docs', framework: 'none' });
    const plan = { objective: 'ship the docs', tasks: [{ seq: '001', slug: 'outline', delta: ['docs/outline.md'], verify: 'true' }, { seq: '002', slug: 'write', delta: ['docs/guide.md'], verify: 'true', depends: '001' }] };
    await ok(server, 'campaign_add_tasks', { plan });
    const status = (await ok(server, 'campaign_status')) as { tasks: { seq: number }[] };
    expect(status.tasks.map((t) => t.seq)).toEqual([1, 2]);
    const waves = await ok(server, 'campaign_waves');
    expect(JSON.stringify(waves)).toContain('"waves"');
    const claimed = (await ok(server, 'campaign_ready', { claim: 'b1' })) as { claimed: { seq: number; runner: string } };
    expect(claimed.claimed).toMatchObject({ seq: 1, runner: 'b1' });
    await ok(server, 'workspace_create', { seq: '001', runner: 'b1' });
    const shown = await ok(server, 'workspace_show', { seq: '001' });
    expect(JSON.stringify(shown)).toContain('docs/outline.md');
    await ok(server, 'workspace_finish', { seq: '001', runner: 'b1', outcome: 'complete', text: 'the outline' });
    const listed = await ok(server, 'workspace_list');
    expect(JSON.stringify(listed)).toContain('complete');
    // b1 holds 001: the update without a runner, or naming another, is refused (the CLI's holder check).
    expect((await call(server, 'campaign_update_task', { seq: '1', status: 'complete' })).isError).toBe(true);
    const other = await call(server, 'campaign_update_task', { seq: '1', status: 'complete', runner: 'b2' });
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toContain('task 001 is held by b1');
    expect(((await ok(server, 'campaign_status')) as { tasks: { seq: number; status: string }[] }).tasks[0]!.status).toBe('in_progress');
    await ok(server, 'campaign_update_task', { seq: '1', status: 'complete', runner: 'b1' });
    const ready = (await ok(server, 'campaign_ready')) as { ready: { seq: number }[] };
    expect(ready.ready.map((t) => t.seq)).toEqual([2]);
  });
});

describe('memory', () => {
  test('add a failure with tags, then query and stats find it', { timeout: 60_000 }, async () => {
    await ok(server, 'memory_add_failure', { trigger: 'EADDRINUSE: port 3000 already in use', fix: 'kill the old dev server', cost: 1500, name: 'port-3000', tag: ['dev'] });
    const found = (await ok(server, 'memory_query', { topic: 'Error: listen EADDRINUSE 127.0.0.1:3000', tag: ['dev'] })) as { failures: { name: string }[] };
    expect(found.failures.map((f) => f.name)).toContain('port-3000');
    const untagged = (await ok(server, 'memory_query', { topic: 'Error: listen EADDRINUSE 127.0.0.1:3000', tag: ['other'] })) as { failures: unknown[] };
    expect(untagged.failures).toEqual([]);
    await ok(server, 'memory_feedback', { name: 'port-3000', helped: true });
    expect(JSON.stringify(await ok(server, 'memory_stats'))).toContain('port-3000');
  });
});

describe('flows, goals, jixo, lessons', () => {
  test('flow_start with inputs, flow_status, flow_list', { timeout: 60_000 }, async () => {
    const started = await ok(server, 'flow_start', { flow: 'reasoning', session: 's1', input: { query: 'add a login page' } });
    expect(JSON.stringify(started)).toContain('s1');
    expect(existsSync(join(dir, '.ratchet/flows/s1.json'))).toBe(true);
    expect(readFileSync(join(dir, '.ratchet/flows/s1.json'), 'utf8')).toContain('add a login page');
    expect(JSON.stringify(await ok(server, 'flow_status', { session: 's1' }))).toContain('s1');
    expect(JSON.stringify(await ok(server, 'flow_list'))).toContain('reasoning');
  });

  test("flow_advance hands in the step's output as text (standard input); a bare advance is refused; there is no flow_resume", { timeout: 60_000 }, async () => {
    await ok(server, 'flow_start', { flow: 'reasoning', session: 'o1', input: { query: 'explain the build' } });
    const bare = await call(server, 'flow_advance', { session: 'o1' });
    expect(bare.isError).toBe(true);
    expect(JSON.stringify(bare.content)).toContain('step 0 hands in its output');
    const output = ['## SHARE', '## ASK', '## ACKNOWLEDGE', '## EXPLORE'].map((h) => `${h}\n\nThe build is explained from its scripts; nothing blocks the work.\n`).join('\n');
    const advanced = (await ok(server, 'flow_advance', { session: 'o1', output })) as { session: { current: string; state: { stepOutputs: Record<string, { text: string }[]> } } };
    expect(advanced.session.current).toBe('1');
    expect(advanced.session.state.stepOutputs['0']![0]!.text).toBe(output);
    // Resuming a halt is the user's decision, from their own shell: the agent's server has no tool for it.
    expect((await server.client.listTools()).tools.map((t) => t.name)).not.toContain('flow_resume');
  });

  test('turn_commit takes the commit object as its standard input; actions_list and turn_assess see the result', { timeout: 60_000 }, async () => {
    const commit = { turn_id: 'turn-1', progress: [], completed_actions: [], new_actions: [{ type: 'reminder', title: 'Tell the team', owner: 'agent', due_at: '2030-01-01T09:00:00Z' }], story_updates: [] };
    await ok(server, 'turn_commit', { commit });
    const actions = await ok(server, 'actions_list');
    expect(JSON.stringify(actions)).toContain('Tell the team');
    expect(JSON.stringify(await ok(server, 'turn_assess', { limit: 5, owner: 'agent' }))).toContain('Tell the team');
    // Replaying the same turn changes nothing (idempotent by turn id).
    await ok(server, 'turn_commit', { commit });
    expect((JSON.stringify(await ok(server, 'actions_list')).match(/Tell the team/g) ?? []).length).toBe(1);
  });

  test('jixo_check of a broken log is a result with its problems; lessons_list on a fresh project', { timeout: 60_000 }, async () => {
    copyFileSync(join(examples, 'jixo/broken.log.md'), join(dir, 'broken.log.md'));
    const r = await call(server, 'jixo_check', { file: 'broken.log.md' });
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.structuredContent)).toMatch(/line/);
    await ok(server, 'lessons_list');
  });
});
