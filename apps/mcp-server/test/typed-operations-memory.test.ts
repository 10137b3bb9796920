/**
 * The memory write tools, the notes tools (questions, stories, scratch, proposals) and the protocol
 * tools run the CLI's typed operations: no argv is built and nothing printed is parsed, and each
 * answers what `ratchet --json <the same command>` answers, for a success and for a refusal, with
 * the same effect on the project's files (run on two identical projects, one per face).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { call, connect, errorText, ratchet, ratchetBin, tempDir, type Connected, type ToolCall } from './helpers.js';

const MEMORY_TOOLS = ['memory_add_failure', 'memory_add_pattern', 'memory_feedback', 'memory_stats', 'memory_link', 'memory_prune', 'memory_observe'];
const PROTOCOL_TOOLS = ['protocol_compile', 'protocol_update'];
const NOTES_TOOLS = ['questions_add', 'stories_update', 'scratch_add', 'scratch_update', 'proposals_submit'];

/** `ratchet --json <args>` in `dir` as the agent: its exit code and document. */
function cliJson(dir: string, args: string[], stdin?: string): { status: number | null; document: unknown } {
  const r = spawnSync(process.execPath, [ratchetBin, '--json', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, RATCHET_ACTOR: 'agent' }, timeout: 60_000, input: stdin });
  return { status: r.status, document: JSON.parse(r.stdout) as unknown };
}

/**
 * Timestamps as a placeholder, fractions rounded and the project's directory as <project>: two
 * runs a moment apart in two directories write the same thing otherwise.
 */
function normalised(value: unknown, dir: string): unknown {
  if (typeof value === 'string') return value.replaceAll(dir, '<project>').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 1000) / 1000;
  if (Array.isArray(value)) return value.map((v) => normalised(v, dir));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v, dir)]));
  return value;
}

const fileOf = (dir: string, path: string): string | undefined => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : undefined);

/**
 * Two identical projects: `cli` where the command runs, `mcp` where the tool runs (a server of its
 * own). `same` runs both and checks they agree: the exit code's verdict, the document, and the
 * files named in `files` afterwards.
 */
interface Pair {
  cli: string;
  mcp: string;
  server: Connected;
  same: (tool: string, args: Record<string, unknown>, argv: string[], files?: string[], stdin?: string) => Promise<{ tool: ToolCall; status: number | null }>;
  close: () => Promise<void>;
}

async function pair(setUp: (dir: string) => void): Promise<Pair> {
  const cli = tempDir('ratchet-mcp-typed-cli-');
  setUp(cli);
  const mcp = tempDir('ratchet-mcp-typed-tool-');
  cpSync(cli, mcp, { recursive: true });
  const server = await connect(mcp, { RATCHET_MCP_TOOLS: 'all' });
  return {
    cli,
    mcp,
    server,
    same: async (tool, args, argv, files = [], stdin) => {
      const typed = await call(server, tool, args);
      const run = cliJson(cli, argv, stdin);
      // Exit 1 of a check (a tool with findings) is its answer; any other non-zero exit is a tool error.
      const findings = TOOLS.find((t) => t.name === tool)?.findings === true;
      expect(typed.isError === true, `${tool}: ${JSON.stringify(typed.content)}`).toBe(run.status !== 0 && !(findings && run.status === 1));
      expect(normalised(typed.structuredContent, mcp), tool).toEqual(normalised(run.document, cli));
      for (const f of files) expect(normalised(fileOf(mcp, f), mcp), `${tool}: ${f}`).toEqual(normalised(fileOf(cli, f), cli));
      return { tool: typed, status: run.status };
    },
    close: () => server.close(),
  };
}

const init = (dir: string): void => void ratchet(['init', '--quiet'], dir);
const MEMORY = '.ratchet/memory.json';

test('the memory write tools, the notes tools and the protocol tools are typed operations, not command lines', () => {
  for (const name of [...MEMORY_TOOLS, ...NOTES_TOOLS, ...PROTOCOL_TOOLS]) {
    const spec = TOOLS.find((t) => t.name === name)!;
    expect(typeof spec.operation, name).toBe('function');
    expect('argv' in spec, name).toBe(false);
  }
});

describe('memory tools answer as `ratchet --json memory ...` and write the same memory', () => {
  let p: Pair;
  beforeAll(async () => {
    p = await pair(init);
  }, 60_000);
  afterAll(async () => p?.close());

  test('add-failure, add-pattern (with a refusal each that writes nothing), feedback, link, stats, prune', { timeout: 180_000 }, async () => {
    // A refusal before anything exists: exit 1, the gates' document, no memory file created.
    const refused = await p.same('memory_add_failure', { trigger: 'short', fix: 'x', cost: 1 }, ['memory', 'add-failure', '--trigger', 'short', '--fix', 'x', '--cost', '1'], [MEMORY]);
    expect(refused.status).toBe(1);
    expect(refused.tool.structuredContent).toMatchObject({ ok: false, status: 'refused' });
    expect(existsSync(join(p.mcp, MEMORY))).toBe(false);

    const added = await p.same(
      'memory_add_failure',
      { trigger: 'EADDRINUSE: port 3000 already in use', fix: 'kill the old dev server', cost: 1500, name: 'port-3000', match: 'EADDRINUSE.*:3000', tag: ['dev', 'node'] },
      ['memory', 'add-failure', '--trigger', 'EADDRINUSE: port 3000 already in use', '--fix', 'kill the old dev server', '--cost', '1500', '--name', 'port-3000', '--match', 'EADDRINUSE.*:3000', '--tag', 'dev', 'node'],
      [MEMORY],
    );
    expect(added.tool.structuredContent).toMatchObject({ ok: true, status: 'added', name: 'port-3000' });

    // A negative cost the tool's schema lets through: the operation's own range check, as the CLI's (exit 2).
    const before = fileOf(p.mcp, MEMORY);
    const negative = await p.same('memory_add_failure', { trigger: 'a negative cost is not a cost', fix: 'x', cost: -5 }, ['memory', 'add-failure', '--trigger', 'a negative cost is not a cost', '--fix', 'x', '--cost=-5'], [MEMORY]);
    expect(negative.status).toBe(2);
    expect(errorText(negative.tool)).toContain('--cost must be a number >= 0');
    expect(fileOf(p.mcp, MEMORY)).toBe(before);

    await p.same(
      'memory_add_pattern',
      { trigger: 'killing a stale dev server before starting', insight: 'lsof -ti :3000 | xargs kill', saved: 800, name: 'kill-stale', tag: ['dev'] },
      ['memory', 'add-pattern', '--trigger', 'killing a stale dev server before starting', '--insight', 'lsof -ti :3000 | xargs kill', '--saved', '800', '--name', 'kill-stale', '--tag', 'dev'],
      [MEMORY],
    );
    const patternRefused = await p.same('memory_add_pattern', { trigger: 'tiny', insight: 'y', saved: 5 }, ['memory', 'add-pattern', '--trigger', 'tiny', '--insight', 'y', '--saved', '5'], [MEMORY]);
    expect(patternRefused.status).toBe(1);

    const helped = await p.same('memory_feedback', { name: 'port-3000', helped: true }, ['memory', 'feedback', 'port-3000', '--helped'], [MEMORY]);
    expect(helped.tool.structuredContent).toMatchObject({ outcome: 'helped', times_helped: 1 });
    await p.same('memory_feedback', { name: 'kill-stale', helped: false }, ['memory', 'feedback', 'kill-stale', '--failed'], [MEMORY]);
    const unknown = await p.same('memory_feedback', { name: 'no-such-entry', helped: true }, ['memory', 'feedback', 'no-such-entry', '--helped'], [MEMORY]);
    expect(unknown.status).toBe(2);
    expect(unknown.tool.structuredContent).toMatchObject({ ok: false, error: { code: 'not-found', file: MEMORY } });

    await p.same('memory_link', { from: 'kill-stale', to: 'port-3000', type: 'solves' }, ['memory', 'link', 'kill-stale', 'port-3000', '--type', 'solves'], [MEMORY]);
    expect(fileOf(p.mcp, MEMORY)).toContain('solved_by');
    const dangling = await p.same('memory_link', { from: 'kill-stale', to: 'nothing-here', type: 'causes' }, ['memory', 'link', 'kill-stale', 'nothing-here', '--type', 'causes'], [MEMORY]);
    expect(dangling.status).toBe(2);

    const stats = await p.same('memory_stats', {}, ['memory', 'stats']);
    expect(stats.tool.structuredContent).toMatchObject({ ok: true, failures: 1, patterns: 1, feedback: { helped: 1, failed: 1 } });

    const dry = await p.same('memory_prune', { min_importance: 100, dry_run: true }, ['memory', 'prune', '--min-importance', '100', '--dry-run'], [MEMORY]);
    expect(dry.tool.structuredContent).toMatchObject({ dryRun: true });
    expect((dry.tool.structuredContent as { removed: unknown[] }).removed).toHaveLength(2);
    await p.same('memory_prune', { min_importance: 100 }, ['memory', 'prune', '--min-importance', '100'], [MEMORY]);
    expect(JSON.parse(fileOf(p.mcp, MEMORY)!)).toMatchObject({ failures: [], patterns: [] });
  });

  test('a memory file edited by hand is refused by stats, prune and add alike (exit 2), and left as it is', { timeout: 120_000 }, async () => {
    const broken = '{"schemaVersion": 1, "failures": [ {"name": 3} ], "patterns": []}\n';
    for (const dir of [p.cli, p.mcp]) writeFileSync(join(dir, '.ratchet/hand.json'), broken);
    for (const [tool, args, argv] of [
      ['memory_stats', { file: '.ratchet/hand.json' }, ['memory', 'stats', '--file', '.ratchet/hand.json']],
      ['memory_prune', { file: '.ratchet/hand.json' }, ['memory', 'prune', '--file', '.ratchet/hand.json']],
      ['memory_add_failure', { trigger: 'a trigger long enough to pass', fix: 'f', cost: 500, file: '.ratchet/hand.json' }, ['memory', 'add-failure', '--trigger', 'a trigger long enough to pass', '--fix', 'f', '--cost', '500', '--file', '.ratchet/hand.json']],
    ] as const) {
      const r = await p.same(tool, args, [...argv], ['.ratchet/hand.json']);
      expect(r.status, tool).toBe(2);
      expect(errorText(r.tool), tool).toContain('.ratchet/hand.json');
      expect(fileOf(p.mcp, '.ratchet/hand.json'), tool).toBe(broken);
    }
  });

  test('a memory file outside the project is refused before the operation runs; nothing is written there', { timeout: 60_000 }, async () => {
    const outside = tempDir('ratchet-mcp-outside-');
    const r = await call(p.server, 'memory_add_failure', { trigger: 'EADDRINUSE: port 3000 already in use', fix: 'kill it', cost: 1500, file: join(outside, 'memory.json') });
    expect(r.isError).toBe(true);
    const escape = await call(p.server, 'memory_stats', { file: '../../etc/memory.json' });
    expect(escape.isError).toBe(true);
    expect(existsSync(join(outside, 'memory.json'))).toBe(false);
    const cli = cliJson(p.cli, ['memory', 'add-failure', '--trigger', 'EADDRINUSE: port 3000 already in use', '--fix', 'kill it', '--cost', '1500', '--file', join(outside, 'memory.json')]);
    expect(cli.status).toBe(2);
    expect(cli.document).toMatchObject({ error: { code: 'outside-root' } });
  });
});

describe('memory_observe answers as `ratchet --json memory observe`', () => {
  /** A campaign whose first task completed and whose second is blocked: one pattern candidate, one failure. */
  const campaign = (dir: string): void => {
    init(dir);
    const plan = {
      objective: 'Add password hashing',
      tasks: [
        { seq: 1, slug: 'spec', type: 'SPEC', delta: ['test/hash.test.ts'], verify: 'true', depends: 'none' },
        { seq: 2, slug: 'bcrypt-hashing', type: 'BUILD', delta: ['src/hash.ts'], verify: 'npm test', depends: 1 },
      ],
    };
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    for (const argv of [
      ['campaign', 'create', plan.objective],
      ['campaign', 'add-tasks', 'plan.json'],
      ['campaign', 'ready', '--claim', 'b1'],
      ['workspace', 'create', '1'],
      ['workspace', 'complete', '1', '--delivered', 'spec written'],
      ['campaign', 'update-task', '1', 'complete', '--runner', 'b1'],
      ['campaign', 'ready', '--claim', 'b1'],
      ['workspace', 'create', '2'],
      ['workspace', 'block', '2', '--reason', 'bcrypt native build fails: gyp ERR! node-gyp rebuild on node 20'],
    ])
      ratchet(argv, dir);
  };

  test('a truncated campaign.json: the same refusal (exit 2), no memory written; none: nothing observed', { timeout: 60_000 }, async () => {
    const p = await pair((dir) => {
      init(dir);
      writeFileSync(join(dir, '.ratchet/campaign.json'), '{"id": "c-1", "tasks": [');
    });
    try {
      const r = await p.same('memory_observe', {}, ['memory', 'observe'], [MEMORY, '.ratchet/campaign.json']);
      expect(r.status).toBe(2);
      expect(errorText(r.tool)).toContain('campaign.json');
      expect(existsSync(join(p.mcp, MEMORY))).toBe(false);
      for (const dir of [p.cli, p.mcp]) rmSync(join(dir, '.ratchet/campaign.json'));
      const none = await p.same('memory_observe', {}, ['memory', 'observe'], [MEMORY]);
      expect(none.tool.structuredContent).toMatchObject({ ok: true, observed: 0 });
      // A workspace directory outside the project is refused before the operation runs.
      expect((await call(p.server, 'memory_observe', { workspace_dir: '../elsewhere' })).isError).toBe(true);
    } finally {
      await p.close();
    }
  });

  test('a campaign with a blocked workspace: the same failure learned, the same phase, the same memory file', { timeout: 180_000 }, async () => {
    const p = await pair(campaign);
    try {
      const r = await p.same('memory_observe', {}, ['memory', 'observe'], [MEMORY, '.ratchet/campaign.json']);
      expect(r.status).toBe(0);
      expect(r.tool.structuredContent).toMatchObject({ ok: true, observed: 2, phase: 'OBSERVE' });
      expect(fileOf(p.mcp, MEMORY)).toContain('gyp ERR!');
      // A timeout out of range: the operation's check, as the command's.
      const bad = await p.same('memory_observe', { verify: true, timeout_ms: 5 }, ['memory', 'observe', '--verify', '--timeout-ms', '5'], [MEMORY]);
      expect(bad.status).toBe(2);
      expect(errorText(bad.tool)).toContain('--timeout-ms');
    } finally {
      await p.close();
    }
  });
});

describe('protocol tools answer as `ratchet --json protocol compile|update` and write the same files', () => {
  let p: Pair;
  const FDC = 'protocols/04-fdc.protocol.json';
  beforeAll(async () => {
    p = await pair(init);
  }, 60_000);
  afterAll(async () => p?.close());

  test('compile, check, add-tool (dry run first), update-rule, deprecate-tool; stale is a result, not a refusal', { timeout: 180_000 }, async () => {
    await p.same('protocol_compile', {}, ['protocol', 'compile'], ['AGENTS.md']);
    const fresh = await p.same('protocol_compile', { check: true }, ['protocol', 'compile', '--check']);
    expect(fresh.tool.structuredContent).toMatchObject({ ok: true });
    const before = fileOf(p.mcp, FDC);
    const dry = await p.same('protocol_update', { action: 'add-tool', protocol_id: 'fdc', tool: 'ratchet memory stats', dry_run: true }, ['protocol', 'update', 'add-tool', 'fdc', 'ratchet memory stats', '--dry-run'], [FDC]);
    expect(dry.tool.structuredContent).toMatchObject({ dryRun: true, changed: true });
    expect(fileOf(p.mcp, FDC)).toBe(before);
    await p.same('protocol_update', { action: 'add-tool', protocol_id: 'fdc', tool: 'ratchet memory stats' }, ['protocol', 'update', 'add-tool', 'fdc', 'ratchet memory stats'], [FDC]);
    expect(fileOf(p.mcp, FDC)).toContain('ratchet memory stats');
    await p.same(
      'protocol_update',
      { action: 'update-rule', protocol_id: 'fdc', rule_id: 'fdc-entry-point', description: 'Start every task at the FDC entry point.' },
      ['protocol', 'update', 'update-rule', 'fdc', 'fdc-entry-point', 'Start every task at the FDC entry point.'],
      [FDC],
    );
    await p.same('protocol_update', { action: 'deprecate-tool', protocol_id: 'fdc', tool: 'ratchet memory stats' }, ['protocol', 'update', 'deprecate-tool', 'fdc', 'ratchet memory stats'], [FDC]);
    // The sources changed, AGENTS.md did not: --check answers stale (exit 1) with the diff, a result.
    const stale = await p.same('protocol_compile', { check: true }, ['protocol', 'compile', '--check'], ['AGENTS.md']);
    expect(stale.status).toBe(1);
    expect(stale.tool.isError).toBeFalsy();
    expect(stale.tool.structuredContent).toMatchObject({ ok: false });
    await p.same('protocol_compile', { out: ['AGENTS.md', 'docs/CLAUDE.md'] }, ['protocol', 'compile', '--out', 'AGENTS.md', '--out', 'docs/CLAUDE.md'], ['AGENTS.md', 'docs/CLAUDE.md']);
    expect(fileOf(p.mcp, 'AGENTS.md')).toContain('Start every task at the FDC entry point.');
  });

  test('refusals: a tool that is not a ratchet command, an unknown protocol, a missing rule_id, an --out that is not Markdown or leaves the project; nothing written', { timeout: 180_000 }, async () => {
    const sources = fileOf(p.mcp, FDC);
    const agents = fileOf(p.mcp, 'AGENTS.md');
    const unknownTool = await p.same('protocol_update', { action: 'add-tool', protocol_id: 'fdc', tool: 'ratchet no-such-thing' }, ['protocol', 'update', 'add-tool', 'fdc', 'ratchet no-such-thing'], [FDC]);
    expect(unknownTool.status).toBe(2);
    expect(unknownTool.tool.structuredContent).toMatchObject({ ok: false, error: { code: 'unknown-tool' } });
    const unknownProtocol = await p.same('protocol_update', { action: 'deprecate-tool', protocol_id: 'nope', tool: 'ratchet plan lint' }, ['protocol', 'update', 'deprecate-tool', 'nope', 'ratchet plan lint'], [FDC]);
    expect(unknownProtocol.status).toBe(2);
    // The argument update-rule needs and the shape cannot require: a usage error (exit 2) naming it.
    const noRule = await call(p.server, 'protocol_update', { action: 'update-rule', protocol_id: 'fdc', description: 'x' });
    expect(noRule.isError).toBe(true);
    expect(noRule.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-option' } });
    expect(errorText(noRule)).toContain('rule_id is required for action update-rule');

    const notMarkdown = await p.same('protocol_compile', { out: ['src/main.ts'] }, ['protocol', 'compile', '--out', 'src/main.ts'], ['src/main.ts']);
    expect(notMarkdown.status).toBe(2);
    expect(notMarkdown.tool.structuredContent).toMatchObject({ error: { code: 'not-owned' } });
    expect(existsSync(join(p.mcp, 'src/main.ts'))).toBe(false);
    const outside = tempDir('ratchet-mcp-outside-');
    for (const out of [['../../escape.md'], ['AGENTS.md', join(outside, 'AGENTS.md')]]) {
      const escaped = await call(p.server, 'protocol_compile', { out });
      expect(escaped.isError, out.join(' ')).toBe(true);
      expect(cliJson(p.cli, ['protocol', 'compile', ...out.flatMap((o) => ['--out', o])]).status).toBe(2);
    }
    expect(existsSync(join(outside, 'AGENTS.md'))).toBe(false);

    // A protocol source edited by hand into invalid JSON: both faces name it (exit 2) and write nothing.
    for (const dir of [p.cli, p.mcp]) writeFileSync(join(dir, FDC), '{"protocol_id": "fdc", "rules": [\n');
    const broken = await p.same('protocol_compile', {}, ['protocol', 'compile'], ['AGENTS.md', FDC]);
    expect(broken.status).toBe(2);
    expect(errorText(broken.tool)).toContain(FDC);
    expect(fileOf(p.mcp, 'AGENTS.md')).toBe(agents);
    expect(sources).not.toBe(fileOf(p.mcp, FDC));
  });
});

describe('notes tools answer as `ratchet --json questions|stories|scratch|proposals ...` and write the same state', () => {
  let p: Pair;
  const STATE = '.ratchet/goals.json';
  beforeAll(async () => {
    p = await pair(init);
  }, 60_000);
  afterAll(async () => p?.close());

  test('questions and stories: add, edit by id, a story grown; a missing text, a stale version and no target refused, nothing written', { timeout: 180_000 }, async () => {
    const q = await p.same('questions_add', { text: 'Which users churn first?', priority: 2, tag: ['growth'] }, ['questions', 'add', 'Which users churn first?', '--priority', '2', '--tag', 'growth'], [STATE]);
    expect(q.tool.structuredContent).toMatchObject({ ok: true, version: 1, question: { id: 'q1', priority: 2 } });
    await p.same('questions_add', { id: 'q1', status: 'answered' }, ['questions', 'add', '--id', 'q1', '--status', 'answered'], [STATE]);
    const before = fileOf(p.mcp, STATE);
    const missing = await p.same('questions_add', { priority: 1 }, ['questions', 'add', '--priority', '1'], [STATE]);
    expect(missing.status).toBe(2);
    expect(errorText(missing.tool)).toContain('missing <text>');
    // Optimistic locking: a stale version is a refusal (exit 1), not a write.
    const stale = await p.same('questions_add', { text: 'Is onboarding too long?', expected_version: 0 }, ['questions', 'add', 'Is onboarding too long?', '--expected-version', '0'], [STATE]);
    expect(stale.status).toBe(1);
    expect(stale.tool.structuredContent).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(fileOf(p.mcp, STATE)).toBe(before);

    const story = await p.same(
      'stories_update',
      { question: 'q1', narrative: 'Churn starts at onboarding', criterion: ['cohort data for 3 months', 'a second cohort'] },
      ['stories', 'update', '--question', 'q1', '--narrative', 'Churn starts at onboarding', '--criterion', 'cohort data for 3 months', 'a second cohort'],
      [STATE],
    );
    expect(story.tool.structuredContent).toMatchObject({ story: { id: 's1', question_id: 'q1', acceptance_criteria: ['cohort data for 3 months', 'a second cohort'] } });
    await p.same('stories_update', { id: 's1', evidence: ['reports/churn.md'], status: 'accepted' }, ['stories', 'update', '--id', 's1', '--evidence', 'reports/churn.md', '--status', 'accepted'], [STATE]);
    const nothing = await p.same('stories_update', { narrative: 'no target' }, ['stories', 'update', '--narrative', 'no target'], [STATE]);
    expect(nothing.status).toBe(2);
    const unknown = await p.same('stories_update', { question: 'q99', narrative: 'x' }, ['stories', 'update', '--question', 'q99', '--narrative', 'x'], [STATE]);
    expect(unknown.tool.isError).toBe(true);
  });

  test('the Scratch Page: add, review, promote, archive, expire; a bad ttl, an unknown item and a missing id refused', { timeout: 180_000 }, async () => {
    const added = await p.same(
      'scratch_add',
      { content: 'signup p95 doubled since Monday', source: 'tool:grafana', tag: ['perf'], confidence: 0.8 },
      ['scratch', 'add', 'signup p95 doubled since Monday', '--source', 'tool:grafana', '--tag', 'perf', '--confidence', '0.8'],
      [STATE],
    );
    expect(added.tool.structuredContent).toMatchObject({ observation: { id: 'o1', confidence: 0.8, source: 'tool:grafana' } });
    await p.same('scratch_add', { content: 'the cache hit rate fell', source: 'daemon:stats', ttl: 'PT1H', id: 'cache' }, ['scratch', 'add', 'the cache hit rate fell', '--source', 'daemon:stats', '--ttl', 'PT1H', '--id', 'cache'], [STATE]);
    const before = fileOf(p.mcp, STATE);
    const badTtl = await p.same('scratch_add', { content: 'x', source: 'y', ttl: 'a week' }, ['scratch', 'add', 'x', '--source', 'y', '--ttl', 'a week'], [STATE]);
    expect(badTtl.status).toBe(2);
    expect(errorText(badTtl.tool)).toContain('--ttl must be an ISO 8601 duration');
    expect(fileOf(p.mcp, STATE)).toBe(before);

    await p.same('scratch_update', { action: 'review', id: 'o1', status: 'pending_review', note: 'look at it' }, ['scratch', 'review', 'o1', 'pending_review', '--note', 'look at it'], [STATE]);
    const promoted = await p.same('scratch_update', { action: 'promote', id: 'o1', to: 'action', title: 'Find why signup got slow' }, ['scratch', 'promote', 'o1', 'action', '--title', 'Find why signup got slow'], [STATE]);
    expect(promoted.tool.structuredContent).toMatchObject({ observation: { status: 'resolved' }, action: { action: { title: 'Find why signup got slow' } } });
    await p.same('scratch_update', { action: 'archive', id: 'cache' }, ['scratch', 'archive', 'cache'], [STATE]);
    await p.same('scratch_update', { action: 'expire' }, ['scratch', 'expire'], [STATE]);
    const gone = await p.same('scratch_update', { action: 'archive', id: 'o404' }, ['scratch', 'archive', 'o404'], [STATE]);
    expect(gone.tool.isError).toBe(true);
    const noId = await call(p.server, 'scratch_update', { action: 'review', status: 'resolved' });
    expect(noId.isError).toBe(true);
    expect(noId.structuredContent).toMatchObject({ error: { code: 'bad-option' } });
    expect(errorText(noId)).toContain('id is required for action review');
  });

  test('proposals: submit from flags and from a JSON object (placed as <stdin>), amend; a malformed proposal refused at its place', { timeout: 180_000 }, async () => {
    const flags = await p.same('proposals_submit', { kind: 'deprecate', type_id: 'research', rationale: 'use agent_task' }, ['proposals', 'submit', '--kind', 'deprecate', '--type-id', 'research', '--rationale', 'use agent_task'], [STATE]);
    expect(flags.tool.structuredContent).toMatchObject({ proposal: { id: 'p1', status: 'open', created_by: 'agent' } });
    const proposal = { proposal_type: 'modify', type_id: 'agent_task', rationale: 'needs a review step', allowed_statuses: ['open', 'in_review', 'done'] };
    await p.same('proposals_submit', { proposal }, ['proposals', 'submit', '-'], [STATE], JSON.stringify(proposal));
    await p.same('proposals_submit', { action: 'amend', id: 'p1', rationale: 'research is agent_task now' }, ['proposals', 'amend', 'p1', '--rationale', 'research is agent_task now'], [STATE]);
    const before = fileOf(p.mcp, STATE);
    const bad = { proposal_type: 'add', type_id: 'deploy', allowed_statuses: 'open' };
    const malformed = await p.same('proposals_submit', { proposal: bad }, ['proposals', 'submit', '-'], [STATE], JSON.stringify(bad));
    expect(malformed.status).toBe(2);
    expect(errorText(malformed.tool)).toContain('<stdin>');
    const noSuch = await p.same('proposals_submit', { action: 'amend', id: 'p404', rationale: 'x' }, ['proposals', 'amend', 'p404', '--rationale', 'x'], [STATE]);
    expect(noSuch.tool.isError).toBe(true);
    expect(fileOf(p.mcp, STATE)).toBe(before);
    // A proposal file outside the project is refused before the operation reads it.
    expect((await call(p.server, 'proposals_submit', { file: '../../etc/passwd' })).isError).toBe(true);
  });

  test('each call names the command it is to the trust boundary; review and merge (the user\'s) are no tool\'s', () => {
    const spec = (name: string) => TOOLS.find((t) => t.name === name)!;
    expect(spec('proposals_submit').command?.({ action: 'amend' })).toBe('proposals amend');
    expect(spec('proposals_submit').command?.({})).toBe('proposals submit');
    for (const action of ['review', 'promote', 'archive', 'expire']) expect(spec('scratch_update').command?.({ action })).toBe(`scratch ${action}`);
    expect(spec('protocol_update').command?.({ action: 'update-rule' })).toBe('protocol update update-rule');
    const reachable = TOOLS.flatMap((t) => t.commands);
    expect(reachable).not.toContain('proposals review');
    expect(reachable).not.toContain('proposals merge');
  });
});
