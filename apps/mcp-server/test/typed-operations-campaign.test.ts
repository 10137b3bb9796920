/**
 * The campaign and workspace tools call the CLI's typed operations (src/operations/campaign.ts,
 * workspace.ts) with their arguments as input: no argv is built, nothing printed is parsed. Each
 * answers what `ratchet --json` answers for the same command, refusals included. The write tools
 * run on one project and the CLI on an identical other one, step by step, and the documents (ids
 * and times aside) and the files left behind must agree.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { call, connect, errorText, ratchet, ratchetBin, tempDir, type Connected, type ToolCall } from './helpers.js';

const TYPED = [
  'workspace_create',
  'workspace_finish',
  'campaign_ready',
  'campaign_heartbeat',
  'campaign_update_task',
  'campaign_status',
  'campaign_cascade_status',
  'campaign_waves',
  'campaign_propagate_blocks',
  'campaign_phase',
  'campaign_complete',
  'campaign_create',
  'campaign_add_tasks',
];

/** `ratchet --json <args>` in `dir` as the agent: its exit code and document. */
function cliJson(dir: string, args: string[], input?: string): { status: number | null; document: unknown } {
  const r = spawnSync(process.execPath, [ratchetBin, '--json', ...args], { cwd: dir, encoding: 'utf8', input, env: { ...process.env, RATCHET_ACTOR: 'agent' }, timeout: 60_000 });
  expect(r.stdout, `ratchet ${args.join(' ')}: ${r.stderr}`).not.toBe('');
  return { status: r.status, document: JSON.parse(r.stdout) as unknown };
}

/** Ids and times differ between two runs: a campaign id carries its creation stamp, claims their lease. */
function normalised(value: unknown, dir: string): unknown {
  const text = JSON.stringify(value)
    .split(dir)
    .join('<dir>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\d{8}T\d{6}Z/g, '<stamp>');
  return JSON.parse(text) as unknown;
}

/** Every file under `.ratchet` with its content, times normalised (what each face left behind). */
function stateOf(dir: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = `${rel}/${entry.name}`.replace(/\d{8}T\d{6}Z/g, '<stamp>');
      if (entry.isDirectory()) walk(`${rel}/${entry.name}`);
      // Lock files, journals and digests (a hash of content that carries times) are the store's.
      // The channel an obligation came by is the one difference the two faces must show (asserted apart).
      else if (!/\.lock$|journal|\.digest$/.test(entry.name)) out[path] = normalised(readFileSync(join(dir, rel, entry.name), 'utf8').replace(/"via": "(mcp|shell)"/g, '"via": "<via>"'), dir);
    }
  };
  walk('.ratchet');
  return out;
}

const PLAN = {
  objective: 'ship the docs',
  tasks: [
    { seq: '001', slug: 'outline', delta: ['docs/outline.md'], verify: 'true' },
    { seq: '002', slug: 'write', delta: ['docs/guide.md'], verify: 'true', depends: '001' },
    { seq: '003', slug: 'publish', delta: ['docs/site.md'], verify: 'true', depends: '002' },
  ],
};

function freshProject(prefix: string): string {
  const dir = tempDir(prefix);
  ratchet(['init', '--quiet'], dir);
  return dir;
}

describe('campaign and workspace tools that run typed operations', () => {
  let cliDir: string;
  let mcpDir: string;
  let server: Connected;
  beforeAll(async () => {
    cliDir = freshProject('ratchet-mcp-camp-cli-');
    mcpDir = freshProject('ratchet-mcp-camp-tool-');
    server = await connect(mcpDir, { RATCHET_MCP_TOOLS: 'all' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  test('every campaign and workspace tool is an operation, not a command line', () => {
    for (const name of TYPED) {
      const spec = TOOLS.find((t) => t.name === name)!;
      expect(typeof spec.operation, name).toBe('function');
      expect('argv' in spec, name).toBe(false);
    }
    // workspace_finish names the command each call is, so the boundary checks the one run.
    const finish = TOOLS.find((t) => t.name === 'workspace_finish')!;
    expect(finish.command?.({ outcome: 'block' })).toBe('workspace block');
    expect(finish.command?.({ outcome: 'complete' })).toBe('workspace complete');
  });

  /**
   * One step on both projects: the tool on the server's, the CLI on the other. Same exit (a tool
   * error for a refusal), same document, same files afterwards.
   */
  async function both(tool: string, args: Record<string, unknown>, cli: string[], input?: string): Promise<ToolCall> {
    const r = await call(server, tool, args);
    const c = cliJson(cliDir, cli, input);
    expect(Boolean(r.isError), `${tool}: ${JSON.stringify(r.content)} vs exit ${c.status}`).toBe(c.status !== 0);
    expect(normalised(r.structuredContent, mcpDir), tool).toEqual(normalised(c.document, cliDir));
    expect(stateOf(mcpDir), `${tool}: the files left behind`).toEqual(stateOf(cliDir));
    return r;
  }

  test('a whole campaign through the tools and through the CLI: the same documents, refusals and files', { timeout: 600_000 }, async () => {
    // Nothing yet: every read refuses the same way.
    expect((await both('campaign_status', {}, ['campaign', 'status'])).isError).toBe(true);
    await both('campaign_create', { objective: 'ship the docs', framework: 'none' }, ['campaign', 'create', 'ship the docs', '--framework', 'none']);
    // A second campaign while one is active is refused; nothing changes.
    expect((await both('campaign_create', { objective: 'another' }, ['campaign', 'create', 'another'])).isError).toBe(true);
    await both('campaign_phase', {}, ['campaign', 'phase']);
    await both('campaign_phase', { event: 'explored', reason: 'two explorers done' }, ['campaign', 'phase', 'explored', '--reason', 'two explorers done']);
    // Again: the phase machine refuses EXPLORE -> PLAN from PLAN.
    expect((await both('campaign_phase', { event: 'explored' }, ['campaign', 'phase', 'explored'])).isError).toBe(true);

    // A plan with a cycle and a bad slug: every problem, nothing added (the plan object reads as piped stdin).
    const bad = { objective: 'x', tasks: [{ seq: '001', slug: 'Bad Slug', delta: ['a'], verify: 'true', depends: '002' }, { seq: '002', slug: 'b', delta: ['b'], verify: 'true', depends: '001' }] };
    const refused = await both('campaign_add_tasks', { plan: bad }, ['campaign', 'add-tasks', '-'], JSON.stringify(bad));
    expect(refused.structuredContent).toMatchObject({ ok: false, file: '<stdin>' });
    // A `__proto__` key never reaches the operation: the SDK's validation of the plan record drops
    // it (as it did when the tool built a command line), so the tool adds what the CLI adds for the
    // plan without it, and nothing global is polluted. (The CLI refuses the key on stdin: tests/cli.)
    const proto = '{"objective":"x","tasks":[],"__proto__":{"polluted":true}}';
    const dropped = await both('campaign_add_tasks', { plan: JSON.parse(proto) as Record<string, unknown> }, ['campaign', 'add-tasks', '-'], '{"objective":"x","tasks":[]}');
    expect(dropped.structuredContent).toMatchObject({ ok: true, added: [] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A plan file: missing, then present (the tool's path resolves in its project).
    expect((await both('campaign_add_tasks', { file: 'plan.json' }, ['campaign', 'add-tasks', 'plan.json'])).isError).toBe(true);
    for (const dir of [cliDir, mcpDir]) writeFileSync(join(dir, 'plan.json'), JSON.stringify(PLAN));
    await both('campaign_add_tasks', { file: 'plan.json' }, ['campaign', 'add-tasks', 'plan.json']);
    await both('campaign_status', {}, ['campaign', 'status']);
    await both('campaign_waves', {}, ['campaign', 'waves']);
    await both('campaign_cascade_status', {}, ['campaign', 'cascade-status']);
    await both('campaign_ready', {}, ['campaign', 'ready']);

    // A lease that is no duration: refused before anything is claimed.
    expect((await both('campaign_ready', { claim: 'b1', lease: 'forever' }, ['campaign', 'ready', '--claim', 'b1', '--lease', 'forever'])).isError).toBe(true);
    expect(existsSync(join(mcpDir, '.ratchet/hooks/opened.json'))).toBe(false);
    const claimed = await both('campaign_ready', { claim: 'b1', lease: '15m' }, ['campaign', 'ready', '--claim', 'b1', '--lease', '15m']);
    expect(claimed.structuredContent).toMatchObject({ ok: true, claimed: { seq: 1, runner: 'b1' } });
    // The claim is an obligation the Stop hook sees, whichever face made it (stateOf compared the files too).
    expect(JSON.parse(readFileSync(join(mcpDir, '.ratchet/hooks/opened.json'), 'utf8'))).toMatchObject({ entries: [{ kind: 'claim', key: 'b1', via: 'mcp' }] });
    const beat = await both('campaign_heartbeat', { runner: 'b1', lease: '10m' }, ['campaign', 'heartbeat', 'b1', '--lease', '10m']);
    expect(beat.structuredContent).toMatchObject({ ok: true, runner: 'b1', renewed: [{ seq: 1 }] });
    await both('campaign_heartbeat', { runner: 'nobody' }, ['campaign', 'heartbeat', 'nobody']);

    // Workspaces: another runner is refused; a prior-knowledge file that is not one names the file.
    expect((await both('workspace_create', { seq: '001', runner: 'b2' }, ['workspace', 'create', '001', '--runner', 'b2'])).isError).toBe(true);
    for (const dir of [cliDir, mcpDir]) writeFileSync(join(dir, 'pk.json'), '[1, 2]');
    const pk = await both('workspace_create', { seq: '001', runner: 'b1', prior_knowledge: 'pk.json' }, ['workspace', 'create', '001', '--runner', 'b1', '--prior-knowledge', 'pk.json']);
    expect(pk.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-prior-knowledge', file: 'pk.json' } });
    expect((await both('workspace_create', { seq: 'x1', runner: 'b1' }, ['workspace', 'create', 'x1', '--runner', 'b1'])).isError).toBe(true);
    await both('workspace_create', { seq: '001', runner: 'b1', memory: false }, ['workspace', 'create', '001', '--runner', 'b1', '--no-memory']);
    // A utilized entry of no known type: refused before anything is read or written.
    const utilized = await both(
      'workspace_finish',
      { seq: '001', runner: 'b1', outcome: 'complete', text: 'the outline', utilized: ['x:nothing'] },
      ['workspace', 'complete', '001', '--runner', 'b1', '--delivered', 'the outline', '--utilized', 'x:nothing'],
    );
    expect(errorText(utilized)).toContain('expected NAME:failure or NAME:pattern');
    await both('workspace_finish', { seq: '001', runner: 'b1', outcome: 'complete', text: 'the outline' }, ['workspace', 'complete', '001', '--runner', 'b1', '--delivered', 'the outline']);

    // b1 holds 001: an update naming another runner is refused; the holder's goes through.
    const other = await both('campaign_update_task', { seq: '1', status: 'complete', runner: 'b2' }, ['campaign', 'update-task', '1', 'complete', '--runner', 'b2']);
    expect(errorText(other)).toContain('task 001 is held by b1');
    await both('campaign_update_task', { seq: '1', status: 'complete', runner: 'b1' }, ['campaign', 'update-task', '1', 'complete', '--runner', 'b1']);
    // An illegal move (complete -> pending) is refused.
    expect((await both('campaign_update_task', { seq: '1', status: 'pending' }, ['campaign', 'update-task', '1', 'pending'])).isError).toBe(true);

    await both('campaign_ready', { claim: 'b2' }, ['campaign', 'ready', '--claim', 'b2']);
    await both('workspace_create', { seq: '002', runner: 'b2' }, ['workspace', 'create', '002', '--runner', 'b2']);
    await both('workspace_finish', { seq: '002', runner: 'b2', outcome: 'block', text: 'sphinx is not installed' }, ['workspace', 'block', '002', '--runner', 'b2', '--reason', 'sphinx is not installed']);
    await both('campaign_update_task', { seq: '2', status: 'blocked', runner: 'b2', reason: 'sphinx is not installed' }, ['campaign', 'update-task', '2', 'blocked', '--runner', 'b2', '--reason', 'sphinx is not installed']);
    await both('campaign_cascade_status', {}, ['campaign', 'cascade-status']);
    const propagated = await both('campaign_propagate_blocks', {}, ['campaign', 'propagate-blocks']);
    expect(propagated.structuredContent).toMatchObject({ ok: true, blocked: [{ seq: 3, rootCause: 2 }] });
    await both('campaign_propagate_blocks', {}, ['campaign', 'propagate-blocks']);

    // Complete is refused before the observer ran; skipped with a reason it archives.
    expect((await both('campaign_complete', {}, ['campaign', 'complete'])).isError).toBe(true);
    const done = await both('campaign_complete', { skip_observe: 'nothing to learn' }, ['campaign', 'complete', '--skip-observe', 'nothing to learn']);
    expect(done.structuredContent).toMatchObject({ ok: true });
    expect(String(done.structuredContent?.workspaces)).toContain('.ratchet/archive/');
    // The slot is free again: both faces refuse a read of the archived campaign alike.
    expect((await both('campaign_waves', {}, ['campaign', 'waves'])).isError).toBe(true);
  });

  test('a campaign.json edited by hand: every tool refuses it as the CLI does, and leaves it as it is', { timeout: 300_000 }, async () => {
    const dir = freshProject('ratchet-mcp-camp-bad-');
    ratchet(['campaign', 'create', 'ship the docs'], dir);
    const file = join(dir, '.ratchet/campaign.json');
    const broken = readFileSync(file, 'utf8').replace('"tasks": []', '"tasks": [{"seq": 1}]').replace('"tasks":[]', '"tasks":[{"seq":1}]');
    expect(broken).toContain('"seq"');
    writeFileSync(file, broken);
    const local = await connect(dir, { RATCHET_MCP_TOOLS: 'all' });
    try {
      const calls: [string, Record<string, unknown>, string[]][] = [
        ['campaign_status', {}, ['campaign', 'status']],
        ['campaign_waves', {}, ['campaign', 'waves']],
        ['campaign_cascade_status', {}, ['campaign', 'cascade-status']],
        ['campaign_ready', { claim: 'b1' }, ['campaign', 'ready', '--claim', 'b1']],
        ['campaign_update_task', { seq: '1', status: 'in_progress' }, ['campaign', 'update-task', '1', 'in_progress']],
        ['campaign_propagate_blocks', {}, ['campaign', 'propagate-blocks']],
        ['campaign_phase', { event: 'explored' }, ['campaign', 'phase', 'explored']],
        ['campaign_complete', { skip_observe: 'x' }, ['campaign', 'complete', '--skip-observe', 'x']],
        ['campaign_add_tasks', { plan: PLAN }, ['campaign', 'add-tasks', '-']],
        ['workspace_create', { seq: '001', runner: 'b1' }, ['workspace', 'create', '001', '--runner', 'b1']],
      ];
      for (const [tool, args, cli] of calls) {
        const r = await call(local, tool, args);
        const c = cliJson(dir, cli, JSON.stringify(PLAN));
        expect(c.status, tool).toBe(2);
        expect(r.isError, tool).toBe(true);
        expect(r.structuredContent, tool).toEqual(c.document);
        expect(errorText(r), tool).toContain('.ratchet/campaign.json');
        expect(readFileSync(file, 'utf8'), `${tool} left the file as it was`).toBe(broken);
      }
      expect(existsSync(join(dir, '.ratchet/hooks/opened.json'))).toBe(false);
    } finally {
      await local.close();
    }
  });

  test('paths outside the project are refused before the operation runs', { timeout: 60_000 }, async () => {
    for (const [tool, args] of [
      ['campaign_add_tasks', { file: '../plan.json' }],
      ['workspace_create', { seq: '001', runner: 'b1', prior_knowledge: '../pk.json' }],
      ['workspace_finish', { seq: '001', runner: 'b1', outcome: 'block', text: 'x', workspace_dir: '/etc' }],
      ['campaign_complete', { skip_observe: 'x', workspace_dir: '../ws' }],
    ] as const) {
      const r = await call(server, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(errorText(r), tool).toMatch(/outside|escapes|inside/i);
    }
  });

  test('the command each workspace_finish call is reaches the trust boundary (inside the sandbox: refused naming it)', { timeout: 120_000 }, async () => {
    const dir = freshProject('ratchet-mcp-camp-sandbox-');
    mkdirSync(join(dir, '.ratchet/workspace'), { recursive: true });
    const sandboxed = await connect(dir, { RATCHET_MCP_TOOLS: 'all', SANDBOX_RUNTIME: '1' });
    try {
      const block = await call(sandboxed, 'workspace_finish', { seq: '001', runner: 'b1', outcome: 'block', text: 'x' });
      expect(block.isError).toBe(true);
      expect(errorText(block)).toContain('ratchet workspace block changes');
      expect(block.structuredContent).toMatchObject({ ok: false, error: { code: 'sandboxed' } });
      const complete = await call(sandboxed, 'workspace_finish', { seq: '001', runner: 'b1', outcome: 'complete', text: 'x' });
      expect(errorText(complete)).toContain('ratchet workspace complete changes');
      // Reads still run there; writes are refused before they start: no campaign appears.
      expect(errorText(await call(sandboxed, 'campaign_create', { objective: 'x' }))).toContain('ratchet campaign create changes');
      expect(existsSync(join(dir, '.ratchet/campaign.json'))).toBe(false);
      expect((await call(sandboxed, 'campaign_ready', {})).isError).toBe(true);
    } finally {
      await sandboxed.close();
    }
  });
});
