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
  return JSON.parse(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>').replace(/"(revision|version|durationMs|elapsedMs|startedAtMs)":\d+/g, '"$1":0')) as unknown;
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
    expect(spec.argv, name).toBeUndefined();
    expect(spec.stdin, name).toBeUndefined();
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

  test('flow_advance keeps a `__proto__` variable name a plain key, as --set does', { timeout: 60_000 }, async () => {
    const set = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    const r = await p.both(['flow', 'advance', '--session', 's1', '--set', '__proto__=x'], 'flow_advance', { session: 's1', set });
    expect(r.status).not.toBe(0);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
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
