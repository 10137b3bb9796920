/**
 * The flow, goals, actions and turn tools run the CLI's typed operations: no argv is built, nothing
 * printed is parsed. Each answers as `ratchet --json <the same command>` does, on two identical fresh
 * projects (one driven by the CLI, one by the tool), for a success and for a refusal or bad input;
 * a refusal writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { call, connect, errorText, ratchet, ratchetBin, tempDir, type Connected, type ToolCall } from './helpers.js';

const TYPED = {
  flow: ['flow_start', 'flow_advance', 'flow_complete_branch', 'flow_halt'],
  goals: ['goals_list', 'goals_add', 'goals_progress', 'actions_list', 'actions_add', 'actions_complete', 'actions_update', 'turn_commit', 'goals_plan'],
  turn: ['turn_start', 'turn_end', 'turn_trace'],
} as const;

/** `ratchet --json <args>` in `dir` as the agent: its exit code and document. */
function cliJson(dir: string, args: string[], input?: string): { status: number | null; document: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [ratchetBin, '--json', ...args], { cwd: dir, encoding: 'utf8', input, env: { ...process.env, RATCHET_ACTOR: 'agent', NO_COLOR: '1' }, timeout: 60_000 });
  return { status: r.status, document: JSON.parse(r.stdout) as Record<string, unknown> };
}

/** A document with what differs between two runs (times, the project directory) made equal. */
function normal(doc: unknown, dirs: readonly string[]): unknown {
  let text = JSON.stringify(doc);
  for (const d of dirs) text = text.split(d).join('<project>');
  return JSON.parse(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>').replace(/"(revision|version|durationMs|elapsedMs|startedAtMs|time_ms)":\d+/g, '"$1":0')
      // A turn's trace id is random.
      .replace(/"tr-[0-9a-f]+"/g, '"<trace>"')) as unknown;
}

function snapshot(dir: string, files: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(files.map((f) => [f, existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null]));
}

/** Two identical fresh projects: `cli` driven by the CLI, `mcp` by a server connected to it. */
interface Pair {
  cli: string;
  mcp: string;
  server: Connected;
  /** Run the command in `cli` and the tool in `mcp`; expect the same exit/isError and the same document. */
  both: (args: string[], tool: string, toolArgs: Record<string, unknown>, input?: string) => Promise<{ status: number | null; typed: ToolCall; document: Record<string, unknown> }>;
}

async function pair(setup: (dir: string) => void = () => {}): Promise<Pair> {
  const cli = tempDir('ratchet-mcp-typed-goals-cli-');
  const mcp = tempDir('ratchet-mcp-typed-goals-mcp-');
  for (const d of [cli, mcp]) {
    ratchet(['init', '--quiet'], d);
    setup(d);
  }
  const server = await connect(mcp, { RATCHET_MCP_TOOLS: 'all' });
  return {
    cli,
    mcp,
    server,
    both: async (args, tool, toolArgs, input) => {
      const c = cliJson(cli, args, input);
      const typed = await call(server, tool, toolArgs);
      expect(typed.structuredContent, `${tool}: ${JSON.stringify(typed.content)}`).toBeDefined();
      expect(normal(typed.structuredContent, [mcp]), tool).toEqual(normal(c.document, [cli]));
      expect(typed.isError === true, `${tool} isError, CLI exit ${c.status}`).toBe(c.status !== 0);
      return { status: c.status, typed, document: c.document };
    },
  };
}

test('the flow, goals, actions and turn tools are operations, not command lines', () => {
  for (const name of Object.values(TYPED).flat()) {
    const spec = TOOLS.find((t) => t.name === name)!;
    expect(spec, name).toBeDefined();
    expect(typeof spec.operation, name).toBe('function');
    expect('argv' in spec, name).toBe(false);
    expect('stdin' in spec, name).toBe(false);
  }
});

describe('flow tools', () => {
  let p: Pair;
  const mini = (dir: string) => {
    mkdirSync(join(dir, 'fl'));
    writeFileSync(join(dir, 'fl/s0.md'), '# Start\n');
    writeFileSync(join(dir, 'fl/s1.md'), '# Split\n');
    const flow = { id: 'mini', title: 'Mini', steps: [{ id: '0', title: 'Start', content: 's0.md' }, { id: '1', title: 'Split', type: 'PARALLEL', content: 's1.md', branches: [{ id: 'a', title: 'A' }] }] };
    writeFileSync(join(dir, 'fl/mini.flow.json'), JSON.stringify(flow));
  };
  beforeAll(async () => {
    p = await pair(mini);
  }, 120_000);
  afterAll(async () => {
    await p?.server.close();
  });

  test('flow_start answers as `flow start`; the session is an obligation the Stop hook sees, and its flow is pinned', { timeout: 120_000 }, async () => {
    const { typed } = await p.both(['flow', 'start', 'reasoning', '--session', 's1', '--input', 'query=add a login page', '--then', 'develop-feature'], 'flow_start', {
      flow: 'reasoning',
      session: 's1',
      input: { query: 'add a login page' },
      then: ['develop-feature'],
    });
    expect(typed.structuredContent).toMatchObject({ ok: true, outcome: 'started', session: { id: 's1', state: { vars: { query: 'add a login page' }, then: ['develop-feature'] } } });
    // Recorded for the Stop hook, on the MCP channel.
    const opened = JSON.parse(readFileSync(join(p.mcp, '.ratchet/hooks/opened.json'), 'utf8')) as { entries: { kind: string; key: string; via: string }[] };
    expect(opened.entries).toContainEqual(expect.objectContaining({ kind: 'flow', key: 's1', via: 'mcp' }));
    // Pinned on first load: an edit of the project's flow file does not change the running session.
    const pins = (dir: string) => normal(JSON.parse(readFileSync(join(dir, '.ratchet/pins.json'), 'utf8')), [dir]);
    expect(JSON.stringify(pins(p.mcp))).toContain('s1');
    expect(pins(p.mcp)).toEqual(pins(p.cli));
  });

  test('flow_start of an unknown flow, a flow outside the project, a running session: refused as the CLI refuses, nothing written', { timeout: 120_000 }, async () => {
    const files = ['.ratchet/flows/s1.json', '.ratchet/pins.json', '.ratchet/hooks/opened.json', '.ratchet/flows/nope.json'];
    const before = snapshot(p.mcp, files);
    const unknown = await p.both(['flow', 'start', 'no-such-flow', '--session', 'nope'], 'flow_start', { flow: 'no-such-flow', session: 'nope' });
    expect(unknown.status).toBe(2);
    const again = await p.both(['flow', 'start', 'reasoning', '--session', 's1'], 'flow_start', { flow: 'reasoning', session: 's1' });
    expect(again.status).toBe(2);
    const badId = await p.both(['flow', 'start', 'reasoning', '--session', '../escape'], 'flow_start', { flow: 'reasoning', session: '../escape' });
    expect(badId.status).toBe(2);
    // A flow file outside the project: the tool's path argument is confined (the CLI trusts its user with one).
    expect(errorText(await call(p.server, 'flow_start', { flow: '/etc/passwd', session: 'x1' }))).toMatch(/outside|project/);
    expect(errorText(await call(p.server, 'flow_start', { flow: '../../x.flow.json', session: 'x2' }))).toMatch(/outside|project/);
    expect(snapshot(p.mcp, files)).toEqual(before);
  });

  test('flow_advance: the bare advance an agent would try is refused (exit 1) and saves nothing; the output is the text itself', { timeout: 120_000 }, async () => {
    const before = snapshot(p.mcp, ['.ratchet/flows/s1.json']);
    const bare = await p.both(['flow', 'advance', '--session', 's1'], 'flow_advance', { session: 's1' });
    expect(bare.status).toBe(1);
    expect(bare.typed.structuredContent).toMatchObject({ ok: false });
    expect(snapshot(p.mcp, ['.ratchet/flows/s1.json'])).toEqual(before);
    // Both --loop and --remediate: exit 2, as the CLI says it.
    const both = await p.both(['flow', 'advance', '--session', 's1', '--loop', '--remediate'], 'flow_advance', { session: 's1', loop: true, remediate: true });
    expect(both.status).toBe(2);
    expect(errorText(both.typed)).toContain('--loop and --remediate cannot be combined');
    // A step output over the library's limit: exit 2, nothing saved.
    const huge = 'x'.repeat(256 * 1024 + 1);
    const tooLong = await call(p.server, 'flow_advance', { session: 's1', output: huge });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(snapshot(p.mcp, ['.ratchet/flows/s1.json'])).toEqual(before);
    // The output text as the CLI reads it from standard input.
    const output = ['## SHARE', '## ASK', '## ACKNOWLEDGE', '## EXPLORE'].map((h) => `${h}\n\nThe login page is explained from its routes; nothing blocks the work.\n`).join('\n');
    const advanced = await p.both(['flow', 'advance', '--session', 's1', '--output', '-', '--note', 'read the routes'], 'flow_advance', { session: 's1', output, note: ['read the routes'] }, output);
    expect(advanced.status).toBe(0);
    expect(advanced.typed.structuredContent).toMatchObject({ session: { current: '1', state: { stepOutputs: { '0': [{ text: output }] } } } });
  });

  test('flow_advance with a `__proto__` variable name pollutes nothing and saves nothing', { timeout: 60_000 }, async () => {
    const before = snapshot(p.mcp, ['.ratchet/flows/s1.json']);
    const set = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    const r = await call(p.server, 'flow_advance', { session: 's1', set });
    expect(r.isError).toBe(true);
    expect(snapshot(p.mcp, ['.ratchet/flows/s1.json'])).toEqual(before);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test('flow_complete_branch and flow_halt answer as the CLI; a wrong branch and a missing session are refused', { timeout: 120_000 }, async () => {
    await p.both(['flow', 'start', 'fl/mini.flow.json', '--session', 'm1'], 'flow_start', { flow: 'fl/mini.flow.json', session: 'm1' });
    await p.both(['flow', 'advance', '--session', 'm1'], 'flow_advance', { session: 'm1' });
    const before = snapshot(p.mcp, ['.ratchet/flows/m1.json']);
    const wrong = await p.both(['flow', 'complete-branch', '1:zz', '--session', 'm1'], 'flow_complete_branch', { session: 'm1', branch: '1:zz' });
    expect(wrong.status).toBe(2);
    expect(snapshot(p.mcp, ['.ratchet/flows/m1.json'])).toEqual(before);
    const branch = await p.both(['flow', 'complete-branch', '1:a', '--session', 'm1'], 'flow_complete_branch', { session: 'm1', branch: '1:a' });
    expect(branch.status).toBe(0);
    const missing = await p.both(['flow', 'halt', '--session', 'none', '--reason', 'x'], 'flow_halt', { session: 'none', reason: 'x' });
    expect(missing.status).toBe(2);
    expect(existsSync(join(p.mcp, '.ratchet/flows/none.json'))).toBe(false);
    const halted = await p.both(['flow', 'halt', '--session', 'm1', '--reason', 'need the audience'], 'flow_halt', { session: 'm1', reason: 'need the audience' });
    expect(halted.typed.structuredContent).toMatchObject({ ok: true, session: { status: 'HALTED' } });
  });

  test('resuming a halt stays the user\'s: no tool runs `flow resume`', async () => {
    expect(TOOLS.flatMap((t) => t.commands)).not.toContain('flow resume');
    expect((await p.server.client.listTools()).tools.map((t) => t.name)).not.toContain('flow_resume');
  });
});

describe('goals and actions tools', () => {
  let p: Pair;
  const STATE = ['.ratchet/goals.json'];
  beforeAll(async () => {
    p = await pair();
  }, 120_000);
  afterAll(async () => {
    await p?.server.close();
  });

  /** A refusal: exit `status` through both faces, and the MCP project's goals state untouched. */
  async function refused(args: string[], tool: string, toolArgs: Record<string, unknown>, status: number): Promise<ToolCall> {
    const before = snapshot(p.mcp, STATE);
    const r = await p.both(args, tool, toolArgs);
    expect(r.status, JSON.stringify(r.document)).toBe(status);
    expect(r.typed.isError).toBe(true);
    expect(snapshot(p.mcp, STATE)).toEqual(before);
    return r.typed;
  }

  test('goals_add, goals_list and goals_progress answer as `goals add|list|progress`', { timeout: 120_000 }, async () => {
    const added = await p.both(['goals', 'add', 'Ship the beta', '--priority', '5', '--metric', 'signups=120', '--constraint', 'no paid ads', '--horizon-days', '90'], 'goals_add', {
      title: 'Ship the beta',
      priority: 5,
      metric: { signups: 120 },
      constraint: ['no paid ads'],
      horizon_days: 90,
    });
    expect(added.typed.structuredContent).toMatchObject({ ok: true, goal: { id: 'g1', priority: 5, metrics: { signups: 120 }, constraints: ['no paid ads'], horizon: { days: 90 } } });
    // An update keeps what it does not name: the other metric, the other half of the horizon.
    const edited = await p.both(['goals', 'add', '--id', 'g1', '--status', 'paused', '--metric', 'churn=2', '--horizon-steps', '4'], 'goals_add', { id: 'g1', status: 'paused', metric: { churn: 2 }, horizon_steps: 4 });
    expect(edited.typed.structuredContent).toMatchObject({ goal: { status: 'paused', metrics: { signups: 120, churn: 2 }, horizon: { days: 90, steps: 4 } } });
    await p.both(['goals', 'add', 'Keep the build green', '--priority', '2'], 'goals_add', { title: 'Keep the build green', priority: 2 });
    const listed = await p.both(['goals', 'list'], 'goals_list', {});
    expect((listed.typed.structuredContent as { goals: { id: string }[] }).goals.map((g) => g.id)).toEqual(['g2']);
    const all = await p.both(['goals', 'list', '--all'], 'goals_list', { all: true });
    expect((all.typed.structuredContent as { goals: { id: string }[] }).goals.map((g) => g.id)).toEqual(['g1', 'g2']);
    const progress = await p.both(['goals', 'progress', 'g2', '--set', '0.5', '--evidence', 'ci/run/1'], 'goals_progress', { id: 'g2', set: 0.5, evidence: ['ci/run/1'] });
    expect(progress.typed.structuredContent).toMatchObject({ ok: true, goal: { id: 'g2', progress: 0.5 } });
    await p.both(['goals', 'progress', 'g2', '--delta', '0.25'], 'goals_progress', { id: 'g2', delta: 0.25 });
  });

  test('goals_add and goals_progress refuse as the CLI does, writing nothing: no title, a bad metric name, a stale version, an unknown goal, nothing to set', { timeout: 120_000 }, async () => {
    expect(errorText(await refused(['goals', 'add'], 'goals_add', {}, 2))).toContain('missing <title>');
    expect(errorText(await refused(['goals', 'add', 'x', '--metric', '1bad=2'], 'goals_add', { title: 'x', metric: { '1bad': 2 } }, 2))).toContain('a metric name starts with a letter');
    const stale = await refused(['goals', 'add', 'x', '--expected-version', '1'], 'goals_add', { title: 'x', expected_version: 1 }, 1);
    expect(stale.structuredContent).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await refused(['goals', 'progress', 'g9', '--set', '0.5'], 'goals_progress', { id: 'g9', set: 0.5 }, 2);
    expect(errorText(await refused(['goals', 'progress', 'g2'], 'goals_progress', { id: 'g2' }, 2))).toContain('give --set, --delta or --evidence');
  });

  test('actions_add, actions_list, actions_update and actions_complete answer as `actions add|list|update|move|retype|complete`', { timeout: 180_000 }, async () => {
    const added = await p.both(['actions', 'add', 'agent_task', 'Write the migration', '--goal', 'g2', '--priority', '3', '--effort', '2'], 'actions_add', { type: 'agent_task', title: 'Write the migration', goal: 'g2', priority: 3, effort: 2 });
    expect(added.typed.structuredContent).toMatchObject({ ok: true, action: { id: 'a1', owner: 'agent', priority: 3, effort: 2, goal_id: 'g2' } });
    // An unknown type: a user_task requiring confirmation, and a proposal filed.
    const unknown = await p.both(['actions', 'add', 'deploy_window', 'Book the deploy window', '--blocking'], 'actions_add', { type: 'deploy_window', title: 'Book the deploy window', blocking: true });
    expect(unknown.typed.structuredContent).toMatchObject({ action: { type: 'user_task', owner: 'user', blocking: true }, proposal: { id: 'p1' } });
    await p.both(['actions', 'list'], 'actions_list', {});
    const agentOnly = await p.both(['actions', 'list', '--owner', 'agent'], 'actions_list', { owner: 'agent' });
    expect((agentOnly.typed.structuredContent as { actions: { id: string }[] }).actions.map((a) => a.id)).toEqual(['a1']);
    const updated = await p.both(['actions', 'update', 'a1', '--title', 'Write and test the migration', '--blocking', '--priority', '4'], 'actions_update', {
      action: 'update',
      id: 'a1',
      title: 'Write and test the migration',
      blocking: true,
      priority: 4,
    });
    expect(updated.typed.structuredContent).toMatchObject({ $schema: expect.stringContaining('actions-update.v1') as unknown, action: { title: 'Write and test the migration', blocking: true, priority: 4 } });
    await p.both(['actions', 'update', 'a1', '--no-blocking'], 'actions_update', { action: 'update', id: 'a1', blocking: false });
    const moved = await p.both(['actions', 'move', 'a1', 'in_progress', '--meta', 'branch=mig'], 'actions_update', { action: 'move', id: 'a1', status: 'in_progress', meta: { branch: 'mig' } });
    expect(moved.typed.structuredContent).toMatchObject({ action: { status: 'in_progress', metadata: { branch: 'mig' } } });
    const done = await p.both(['actions', 'complete', 'a1', '--evidence', 'migrations/001.sql'], 'actions_complete', { id: 'a1', evidence: ['migrations/001.sql'] });
    expect(done.typed.structuredContent).toMatchObject({ action: { status: 'done', evidence_refs: ['migrations/001.sql'] } });
    await p.both(['actions', 'list', '--all'], 'actions_list', { all: true });
  });

  test('actions tools refuse as the CLI does, writing nothing: nothing to update, an unknown id, a bad move, a retype with nothing merged', { timeout: 180_000 }, async () => {
    expect(errorText(await refused(['actions', 'update', 'a2'], 'actions_update', { action: 'update', id: 'a2' }, 2))).toContain('give at least one of');
    await refused(['actions', 'update', 'a9', '--title', 'x'], 'actions_update', { action: 'update', id: 'a9', title: 'x' }, 2);
    await refused(['actions', 'move', 'a2', 'no_such_status'], 'actions_update', { action: 'move', id: 'a2', status: 'no_such_status' }, 1);
    await refused(['actions', 'retype', 'a2'], 'actions_update', { action: 'retype', id: 'a2' }, 1);
    await refused(['actions', 'complete', 'a9'], 'actions_complete', { id: 'a9' }, 2);
    await refused(['actions', 'add', 'agent_task', 'x', '--goal', 'g99'], 'actions_add', { type: 'agent_task', title: 'x', goal: 'g99' }, 2);
    // A move without its status is refused by name before anything runs, as the CLI's usage error.
    const before = snapshot(p.mcp, STATE);
    const noStatus = await call(p.server, 'actions_update', { action: 'move', id: 'a2' });
    expect(errorText(noStatus)).toContain('status is required for action move');
    expect(noStatus.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-option', message: 'status is required for action move' } });
    expect(snapshot(p.mcp, STATE)).toEqual(before);
  });

  test("completing a user-owned action is the user's: refused on the MCP channel (exit 1, owner rules), nothing written, and no tool argument makes it the user", { timeout: 120_000 }, async () => {
    for (const d of [p.cli, p.mcp]) ratchet(['actions', 'add', 'user_task', 'Approve the schema', '--owner', 'user', '--id', 'u1', '--as', 'user'], d);
    const typed = await refused(['actions', 'complete', 'u1'], 'actions_complete', { id: 'u1' }, 1);
    expect(typed.structuredContent).toMatchObject({ ok: false, error: { code: 'owner-violation' } });
    await refused(['actions', 'move', 'u1', 'done'], 'actions_update', { action: 'move', id: 'u1', status: 'done' }, 1);
    // The agent's shortcut: claim to be the user. The tool has no such argument; the CLI refuses it where RATCHET_ACTOR=agent.
    const before = snapshot(p.mcp, STATE);
    expect((await call(p.server, 'actions_complete', { id: 'u1', as: 'user' })).isError).toBe(true);
    expect(snapshot(p.mcp, STATE)).toEqual(before);
    expect(cliJson(p.cli, ['actions', 'complete', 'u1', '--as', 'user']).status).not.toBe(0);
  });

  test('actions_update names the command each call is, so the trust boundary checks the one that runs', () => {
    const spec = TOOLS.find((t) => t.name === 'actions_update')!;
    expect(spec.command?.({ action: 'move', id: 'a1', status: 'done' })).toBe('actions move');
    expect(spec.command?.({ action: 'retype', id: 'a1' })).toBe('actions retype');
    expect(spec.command?.({ action: 'update', id: 'a1', title: 't' })).toBe('actions update');
    for (const a of ['move', 'retype', 'update']) expect(spec.commands).toContain(spec.command?.({ action: a, id: 'a1', status: 's' }));
  });
});

describe('turn_commit and goals_plan', () => {
  let p: Pair;
  const STATE = ['.ratchet/goals.json'];
  const PLAN = 'Measure signups before changing the funnel.\n\n## Step 1: Measure\nSuccess Criteria: the numbers are in profiles/signup.json\nActions: export the signup funnel\nParallelizable with: None\n';
  beforeAll(async () => {
    p = await pair((d) => {
      mkdirSync(join(d, 'plans'));
      writeFileSync(join(d, 'plans/funnel.md'), PLAN);
      writeFileSync(join(d, 'plans/broken.md'), 'No steps here.\n\n## Step 1: Measure\nActions: export\nParallelizable with: Step 7\n');
    });
  }, 120_000);
  afterAll(async () => {
    await p?.server.close();
  });

  test('turn_commit applies the commit object as `turn commit -` does, once; a bad commit is placed in it and writes nothing', { timeout: 120_000 }, async () => {
    const commit = { turn_id: 'turn-1', progress: [], completed_actions: [], new_actions: [{ type: 'reminder', title: 'Tell the team', owner: 'agent', due_at: '2030-01-01T09:00:00Z' }], story_updates: [] };
    const first = await p.both(['turn', 'commit', '-'], 'turn_commit', { commit }, JSON.stringify(commit));
    expect(first.typed.structuredContent).toMatchObject({ ok: true, turn_id: 'turn-1', replayed: false });
    const again = await p.both(['turn', 'commit', '-'], 'turn_commit', { commit }, JSON.stringify(commit));
    expect(again.typed.structuredContent).toMatchObject({ ok: true, replayed: true });
    const before = snapshot(p.mcp, STATE);
    const bad = { ...commit, turn_id: 'turn-2', new_actions: [{ type: 'reminder', owner: 'agent' }] };
    const typed = await call(p.server, 'turn_commit', { commit: bad });
    const cli = cliJson(p.cli, ['turn', 'commit', '-'], JSON.stringify(bad));
    expect(cli.status).toBe(2);
    expect(typed.isError).toBe(true);
    // The same error, placed at the same line and column of the same JSON; named for the tool's argument, not standard input.
    expect(typed.structuredContent).toEqual(JSON.parse(JSON.stringify(cli.document).split('"<stdin>"').join('"commit"')));
    expect(errorText(typed)).toMatch(/^commit:1:\d+: /);
    expect(snapshot(p.mcp, STATE)).toEqual(before);
    // A stale expected_version: refused (exit 1), nothing written.
    const stale = { ...commit, turn_id: 'turn-3', expected_version: 0 };
    const r = await p.both(['turn', 'commit', '-'], 'turn_commit', { commit: stale }, JSON.stringify(stale));
    expect(r.status).toBe(1);
    expect(snapshot(p.mcp, STATE)).toEqual(before);
  });

  test('goals_plan starts a plan from a file or its text and records steps as `goals plan start|step` do', { timeout: 120_000 }, async () => {
    const fromFile = await p.both(['goals', 'plan', 'start', 'plans/funnel.md', '--id', 'pl1'], 'goals_plan', { action: 'start', file: 'plans/funnel.md', id: 'pl1' });
    expect(fromFile.typed.structuredContent).toMatchObject({ ok: true, plan: { id: 'pl1', source: 'plans/funnel.md' }, ready: [1] });
    // The text itself: the same run as the CLI's from standard input, named for the argument.
    const typed = await call(p.server, 'goals_plan', { action: 'start', text: PLAN, id: 'pl2' });
    const cli = cliJson(p.cli, ['goals', 'plan', 'start', '-', '--id', 'pl2'], PLAN);
    expect(normal(typed.structuredContent, [p.mcp])).toEqual(normal(JSON.parse(JSON.stringify(cli.document).split('"<stdin>"').join('"text"')), [p.cli]));
    await p.both(['goals', 'plan', 'step', 'pl1', '1', 'start'], 'goals_plan', { action: 'step', plan: 'pl1', step: 1, event: 'start' });
    const ok = await p.both(['goals', 'plan', 'step', 'pl1', '1', 'succeed', '--evidence', 'profiles/signup.json'], 'goals_plan', { action: 'step', plan: 'pl1', step: 1, event: 'succeed', evidence: ['profiles/signup.json'] });
    expect(ok.typed.structuredContent).toMatchObject({ plan: { id: 'pl1', status: 'succeeded' } });
  });

  test('goals_plan refuses as the CLI does, writing nothing: a plan with errors (exit 1, its problems), a file outside the project or missing, a step not started, no evidence', { timeout: 120_000 }, async () => {
    const before = snapshot(p.mcp, STATE);
    const broken = await p.both(['goals', 'plan', 'start', 'plans/broken.md'], 'goals_plan', { action: 'start', file: 'plans/broken.md' });
    expect(broken.status).toBe(1);
    expect(broken.typed.structuredContent).toMatchObject({ ok: false, file: 'plans/broken.md' });
    const missing = await p.both(['goals', 'plan', 'start', 'plans/none.md'], 'goals_plan', { action: 'start', file: 'plans/none.md' });
    expect(missing.status).toBe(2);
    expect(errorText(await call(p.server, 'goals_plan', { action: 'start', file: '../outside.md' }))).toMatch(/outside|project/);
    const early = await p.both(['goals', 'plan', 'step', 'pl2', '1', 'succeed', '--evidence', 'x'], 'goals_plan', { action: 'step', plan: 'pl2', step: 1, event: 'succeed', evidence: ['x'] });
    expect(early.status).toBe(1);
    await p.both(['goals', 'plan', 'step', 'pl9', '1', 'start'], 'goals_plan', { action: 'step', plan: 'pl9', step: 1, event: 'start' });
    const noEvent = await call(p.server, 'goals_plan', { action: 'step', plan: 'pl2', step: 1 });
    expect(errorText(noEvent)).toContain('event is required for action step');
    expect(noEvent.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-option' } });
    expect(errorText(await call(p.server, 'goals_plan', { action: 'start' }))).toContain('file is required for action start');
    expect(snapshot(p.mcp, STATE)).toEqual(before);
  });
});

describe('turn_start, turn_trace and turn_end', () => {
  let p: Pair;
  const TRACES = ['.ratchet/traces.jsonl'];
  beforeAll(async () => {
    p = await pair();
  }, 120_000);
  afterAll(async () => {
    await p?.server.close();
  });

  test('each records as `turn start|trace|end` does: a turn with budgets, a span, an event with a payload, the span ended, the turn ended', { timeout: 180_000 }, async () => {
    const started = await p.both(['turn', 'start', 't1', '--tokens', '100000', '--tools', '40'], 'turn_start', { turn: 't1', tokens: 100_000, tools: 40 });
    expect(started.typed.structuredContent).toMatchObject({ ok: true, turn_id: 't1', budgets: { tokens: 100_000, tools: 40 } });
    await p.both(['turn', 'trace', 'span', 'start', 'exec', '--component', 'executor', '--tokens', '5000'], 'turn_trace', { action: 'span_start', span: 'exec', component: 'executor', tokens: 5000 });
    const event = await p.both(['turn', 'trace', 'event', 'Decision', 'keep the old API', '--span', 'exec', '--payload', '{"options":2}'], 'turn_trace', {
      action: 'event',
      kind: 'Decision',
      summary: 'keep the old API',
      span: 'exec',
      payload: { options: 2 },
    });
    expect(event.typed.structuredContent).toMatchObject({ appended: [{ kind: 'Decision', payload: { options: 2 }, span_id: 'exec' }] });
    // Past the span's budget: a Policy event names it, through either face.
    const ended = await p.both(['turn', 'trace', 'span', 'end', 'exec', '--tokens', '6000', '--tools', '1'], 'turn_trace', { action: 'span_end', span: 'exec', tokens: 6000, tools: 1 });
    expect(JSON.stringify(ended.typed.structuredContent)).toContain('budget');
    const done = await p.both(['turn', 'end', '--summary', 'cache planned'], 'turn_end', { summary: 'cache planned' });
    expect(done.typed.structuredContent).toMatchObject({ ok: true, turn_id: 't1' });
  });

  test('refusals as the CLI refuses them, nothing appended: into an ended turn, a span never started, an event without its summary, a hostile payload', { timeout: 180_000 }, async () => {
    const before = snapshot(p.mcp, TRACES);
    const late = await p.both(['turn', 'trace', 'event', 'Decision', 'too late'], 'turn_trace', { action: 'event', kind: 'Decision', summary: 'too late' });
    expect(late.status).toBe(1);
    await p.both(['turn', 'end', 't1'], 'turn_end', { turn: 't1' });
    await p.both(['turn', 'trace', 'span', 'end', 'nope', '--turn', 't9'], 'turn_trace', { action: 'span_end', span: 'nope', turn: 't9' });
    const noSummary = await call(p.server, 'turn_trace', { action: 'event', kind: 'Decision' });
    expect(errorText(noSummary)).toContain('summary is required for action event');
    expect(noSummary.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-option' } });
    expect(errorText(await call(p.server, 'turn_trace', { action: 'span_start' }))).toContain('span is required for action span_start');
    expect(snapshot(p.mcp, TRACES)).toEqual(before);
    // A payload with a __proto__ key deep inside: refused by the store's guarded parser, as --payload is.
    await p.both(['turn', 'start', 't2'], 'turn_start', { turn: 't2' });
    const open = snapshot(p.mcp, TRACES);
    const payload = JSON.parse('{"a": {"__proto__": {"polluted": true}}}') as Record<string, unknown>;
    const hostile = await call(p.server, 'turn_trace', { action: 'event', kind: 'Observation', summary: 'x', payload });
    expect(hostile.isError).toBe(true);
    expect(cliJson(p.cli, ['turn', 'trace', 'event', 'Observation', 'x', '--payload', '{"a": {"__proto__": {"polluted": true}}}']).status).toBe(2);
    expect(snapshot(p.mcp, TRACES)).toEqual(open);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
