/**
 * Tools of an area with typed operations (the lessons area) call the CLI's operation with their
 * arguments as its input and return its result document: no argv is built, nothing printed is
 * parsed, and the answer is the one `ratchet --json` gives for the same command, errors included.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { call, connect, errorText, ratchet, ratchetBin, tempDir, type Connected } from './helpers.js';

const TYPED = ['lessons_extract', 'lessons_apply', 'lessons_list', 'turn_assess', 'run_status', 'run_next', 'flow_list', 'flow_status', 'workspace_show', 'workspace_list', 'memory_query'];

/** `ratchet --json <args>` in `dir`: its exit code and document. */
function cliJson(dir: string, args: string[]): { status: number | null; document: unknown } {
  const r = spawnSync(process.execPath, [ratchetBin, '--json', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, RATCHET_ACTOR: 'agent' }, timeout: 60_000 });
  return { status: r.status, document: JSON.parse(r.stdout) as unknown };
}

describe('tools that run typed operations', () => {
  let dir: string;
  let server: Connected;
  beforeAll(async () => {
    dir = tempDir('ratchet-mcp-typed-');
    ratchet(['init', '--quiet'], dir);
    server = await connect(dir, { RATCHET_MCP_TOOLS: 'all' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  test('the lessons, run, flow and workspace read tools, turn_assess and memory_query are operations, not command lines', () => {
    for (const name of TYPED) {
      const spec = TOOLS.find((t) => t.name === name)!;
      expect(typeof spec.operation, name).toBe('function');
      expect('argv' in spec, name).toBe(false);
    }
  });

  test('every tool is an operation, and no module of the server runs a command line or parses printed output', () => {
    expect(TOOLS.length).toBeGreaterThan(70);
    for (const spec of TOOLS) expect(typeof spec.operation, spec.name).toBe('function');
    const src = fileURLToPath(new URL('../src', import.meta.url));
    const sources = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(10);
    for (const file of sources) {
      const text = readFileSync(join(src, file), 'utf8');
      // The CLI's argv entry point (`run`) and a `--json` command line are what a face must not use.
      expect(/import\s*\{[^}]*\brun\b[^}]*\}\s*from\s*'@ratchet\/cli'/.test(text), file).toBe(false);
      expect(text.includes("'--json'"), file).toBe(false);
    }
  });

  test('each answers as `ratchet --json` does: a list, an extract, a dry run, and a lessons file edited by hand (refused, exit 2)', { timeout: 120_000 }, async () => {
    mkdirSync(join(dir, 'postmortems'), { recursive: true });
    writeFileSync(
      join(dir, 'postmortems/T-9.md'),
      '# Post-mortem\n\n**Task:** T-9\n\n## Corrective Actions & Lessons Learned\n\n**Lesson:** The build step needs the cache warmed first.\n**Action:** tell the team to warm the cache before building\n',
    );
    const extracted = await call(server, 'lessons_extract', { postmortem: 'postmortems/T-9.md' });
    expect(extracted.isError, JSON.stringify(extracted.content)).toBeFalsy();
    expect(extracted.structuredContent).toMatchObject({ ok: true, task_id: 'T-9', lessons: 'knowledge_core/lessons.jsonl', found: 1 });
    // Extracting again adds nothing, through either face: the same document but for `added`.
    const again = cliJson(dir, ['lessons', 'extract', 'postmortems/T-9.md']);
    expect(again.status).toBe(0);
    expect(again.document).toEqual({ ...extracted.structuredContent, added: [] });

    const listed = await call(server, 'lessons_list', { status: 'manual' });
    expect(listed.structuredContent).toEqual(cliJson(dir, ['lessons', 'list', '--status', 'manual']).document);
    expect((listed.structuredContent as { lessons: unknown[] }).lessons).toHaveLength(1);

    const dry = await call(server, 'lessons_apply', { dry_run: true });
    expect(dry.isError, JSON.stringify(dry.content)).toBeFalsy();
    expect(dry.structuredContent).toMatchObject({ ok: true, dryRun: true });

    // A line added by hand: Ratchet did not write it, so both faces refuse the file (doctor names it).
    writeFileSync(join(dir, 'knowledge_core/lessons.jsonl'), `${'{"not": "a lesson"'}\n`, { flag: 'a' });
    const corrupt = await call(server, 'lessons_list');
    const cli = cliJson(dir, ['lessons', 'list']);
    expect(cli.status).toBe(2);
    expect(corrupt.isError).toBe(true);
    expect(corrupt.structuredContent).toEqual(cli.document);
    expect(corrupt.structuredContent).toMatchObject({ ok: false, error: { code: 'tampered' } });
    expect(errorText(corrupt)).toContain('knowledge_core/lessons.jsonl');
  });

  test('an input error is the CLI error document and message; the file is never written', { timeout: 60_000 }, async () => {
    const before = readFileSync(join(dir, 'knowledge_core/lessons.jsonl'));
    const missing = await call(server, 'lessons_extract', { postmortem: 'postmortems/none.md' });
    const cli = cliJson(dir, ['lessons', 'extract', 'postmortems/none.md']);
    expect(cli.status).toBe(2);
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toEqual(cli.document);
    expect(errorText(missing)).toContain('postmortems/none.md');
    expect(readFileSync(join(dir, 'knowledge_core/lessons.jsonl'))).toEqual(before);
  });

  test('turn_assess is the assessment `ratchet turn assess --json` prints, with its options as the input', { timeout: 60_000 }, async () => {
    ratchet(['goals', 'add', 'keep the build green', '--priority', '3'], dir);
    ratchet(['goals', 'add', 'write the release notes', '--priority', '1'], dir);
    const typed = await call(server, 'turn_assess', { limit: 1, query: 'release notes' });
    expect(typed.isError, JSON.stringify(typed.content)).toBeFalsy();
    const cli = cliJson(dir, ['turn', 'assess', '--limit', '1', '--query', 'release notes']);
    expect(cli.status).toBe(0);
    expect(typed.structuredContent).toEqual(cli.document);
    expect(typed.structuredContent).toMatchObject({ $schema: expect.stringContaining('turn-assess.v1') as unknown, ok: true });
    // The query ranks the release notes first.
    expect(JSON.stringify(typed.structuredContent).indexOf('release notes')).toBeLessThan(JSON.stringify(typed.structuredContent).indexOf('build green'));
  });

  test('run_status and run_next answer as `ratchet --json run status|next` do, before a task and during one (exit 1 of next is its result)', { timeout: 120_000 }, async () => {
    const project = tempDir('ratchet-mcp-typed-run-');
    ratchet(['init', '--quiet'], project);
    const own = await connect(project);
    try {
      const compare = async (tool: string, args: string[]) => {
        const typed = await call(own, tool);
        const cli = cliJson(project, args);
        expect(typed.structuredContent, tool).toEqual(cli.document);
        return { typed, cli };
      };
      const none = await compare('run_status', ['run', 'status']);
      expect(none.typed.structuredContent).toMatchObject({ ok: true, session: null, state: 'START' });
      // No task: run next exits 1 with the instruction, a result (findings), not a tool error.
      const idle = await compare('run_next', ['run', 'next']);
      expect(idle.cli.status).toBe(1);
      expect(idle.typed.isError).toBeFalsy();
      ratchet(['task', 'start', '--task-id', 'T-3', '--no-network', '--quiet'], project);
      writeFileSync(join(project, 'plan.txt'), 'set_plan p\nplan_step_complete go\nrun_in_bash_session close\n');
      ratchet(['run', 'plan', 'plan.txt', '--quiet'], project);
      const status = await compare('run_status', ['run', 'status']);
      expect(status.typed.structuredContent).toMatchObject({ ok: true, session: { taskId: 'T-3', state: 'EXECUTING' } });
      const next = await compare('run_next', ['run', 'next']);
      expect(next.cli.status).toBe(0);
      expect(next.typed.structuredContent).toMatchObject({ ok: true, state: 'EXECUTING', next: { step: { line: 'set_plan p' } } });
      // A session path outside the project is refused before the operation runs.
      expect(errorText(await call(own, 'run_status', { session: '../elsewhere.json' }))).toMatch(/outside|project/);
    } finally {
      await own.close();
    }
  });

  test('flow_list and flow_status answer as `ratchet --json flow list|status` do: flows, a started session, one session, and an unreadable one (exit 1)', { timeout: 120_000 }, async () => {
    const project = tempDir('ratchet-mcp-typed-flow-');
    ratchet(['init', '--quiet'], project);
    const own = await connect(project, { RATCHET_MCP_TOOLS: 'all' });
    try {
      const same = async (tool: string, args: Record<string, unknown>, cliArgs: string[]) => {
        const typed = await call(own, tool, args);
        const cli = cliJson(project, cliArgs);
        expect(typed.structuredContent, tool).toEqual(cli.document);
        return { typed, cli };
      };
      const listed = await same('flow_list', {}, ['flow', 'list']);
      expect((listed.typed.structuredContent as { flows: { name: string }[] }).flows.map((f) => f.name)).toContain('reasoning');
      ratchet(['flow', 'start', 'reasoning', '--session', 's1', '--input', 'query=why', '--quiet'], project);
      const one = await same('flow_status', { session: 's1' }, ['flow', 'status', '--session', 's1']);
      expect(one.typed.structuredContent).toMatchObject({ ok: true, session: { id: 's1', status: 'EXECUTING' } });
      await same('flow_status', {}, ['flow', 'status']);
      // A session file edited by hand is unreadable: listed as such, exit 1, and the tool an error with the document.
      writeFileSync(join(project, '.ratchet/flows/s1.json'), '{"broken": ');
      const bad = await same('flow_status', {}, ['flow', 'status']);
      expect(bad.cli.status).toBe(1);
      expect(bad.typed.isError).toBe(true);
      expect((bad.typed.structuredContent as { unreadableSessions: unknown[] }).unreadableSessions).toHaveLength(1);
      await same('flow_list', {}, ['flow', 'list']);
    } finally {
      await own.close();
    }
  });

  test('workspace_show and workspace_list answer as `ratchet --json workspace show|list` do; a bad seq is the same usage error', { timeout: 120_000 }, async () => {
    const project = tempDir('ratchet-mcp-typed-ws-');
    ratchet(['init', '--quiet'], project);
    writeFileSync(join(project, 'plan.json'), JSON.stringify({ objective: 'docs', tasks: [{ seq: '001', slug: 'outline', delta: ['docs/outline.md'], verify: 'true' }] }));
    ratchet(['campaign', 'create', 'docs', '--quiet'], project);
    ratchet(['campaign', 'add-tasks', 'plan.json', '--quiet'], project);
    ratchet(['campaign', 'ready', '--claim', 'b1', '--quiet'], project);
    ratchet(['workspace', 'create', '001', '--runner', 'b1', '--quiet'], project);
    const own = await connect(project, { RATCHET_MCP_TOOLS: 'all' });
    try {
      const shown = await call(own, 'workspace_show', { seq: '1' });
      expect(shown.structuredContent).toEqual(cliJson(project, ['workspace', 'show', '001']).document);
      expect(JSON.stringify(shown.structuredContent)).toContain('docs/outline.md');
      const listed = await call(own, 'workspace_list');
      expect(listed.structuredContent).toEqual(cliJson(project, ['workspace', 'list']).document);
      const bad = await call(own, 'workspace_show', { seq: 'one' });
      const cli = cliJson(project, ['workspace', 'show', 'one']);
      expect(cli.status).toBe(2);
      expect(bad.structuredContent).toEqual(cli.document);
      expect(errorText(bad)).toContain('not a task seq');
    } finally {
      await own.close();
    }
  });

  test('memory_query answers as `ratchet --json memory query` does; a count out of range is the same usage error', { timeout: 120_000 }, async () => {
    const project = tempDir('ratchet-mcp-typed-mem-');
    ratchet(['init', '--quiet'], project);
    ratchet(['memory', 'add-failure', '--name', 'npm-ci-lock', '--trigger', 'npm ci fails: lockfile out of date with package.json', '--fix', 'run npm install and commit the lockfile', '--cost', '1500', '--quiet'], project);
    const own = await connect(project);
    try {
      const typed = await call(own, 'memory_query', { topic: 'npm ci lockfile error', failures: 2 });
      expect(typed.isError, JSON.stringify(typed.content)).toBeFalsy();
      const cli = cliJson(project, ['memory', 'query', '--failures', '2', 'npm ci lockfile error']);
      // The signals carry the entry's age, which moves between the two calls: compared without it.
      const strip = (doc: unknown): unknown =>
        JSON.parse(JSON.stringify(doc), (key, value: unknown) => (key === 'ageDays' || key === 'decay' || key === 'score' ? undefined : value)) as unknown;
      expect(strip(typed.structuredContent)).toEqual(strip(cli.document));
      expect((typed.structuredContent as { failures: { name: string }[] }).failures.map((f) => f.name)).toEqual(['npm-ci-lock']);
      const bad = await call(own, 'memory_query', { topic: 'x', failures: 5000 });
      const cliBad = cliJson(project, ['memory', 'query', '--failures', '5000', 'x']);
      expect(cliBad.status).toBe(2);
      expect(bad.structuredContent).toEqual(cliBad.document);
    } finally {
      await own.close();
    }
  });
});
