/**
 * The task lifecycle and plan tools run the CLI's typed operations (src/operations/orchestrator*.ts,
 * src/operations/plan.ts): no argv is built, nothing printed is parsed, and each answers as
 * `ratchet --json <the same command>` does, refusals included. Write tools are compared on two
 * identical fresh projects (the CLI in one, the tool in the other), with what differs by nature
 * (session ids, timestamps, timings, the project's path) normalised; a refusal writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { fillPostMortem } from '../../../tests/helpers.js';
import { TOOLS } from '../src/tools/index.js';
import { call, connect, errorText, ratchet, ratchetBin, taskProject, tempDir, type Connected, type ToolCall } from './helpers.js';

// The command line of the CLI, as the MCP invoke path would run it for a tool without an operation:
// replaced so that a tool reaching it fails the test (the in-process lifecycle below).
const argvRuns = vi.hoisted(() => [] as string[][]);
vi.mock('@ratchet/cli', async (importOriginal) => {
  const cli = await importOriginal<Record<string, unknown>>();
  return {
    ...cli,
    run: (argv: string[]): Promise<number> => {
      argvRuns.push(argv);
      return Promise.reject(new Error(`a command line was run: ${argv.join(' ')}`));
    },
  };
});

const CONVERTED = ['task_start', 'run_plan', 'run_done', 'task_close', 'task_submit', 'research_plan', 'research_done', 'plan_lint', 'plan_analyze', 'plan_registry_register', 'plan_registry_deregister'];
const FINDINGS = new Set(TOOLS.filter((t) => t.findings === true).map((t) => t.name));

/** `ratchet --json <args>` in `dir` as the agent: its exit code and document. */
function cliJson(dir: string, args: string[]): { status: number | null; document: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [ratchetBin, '--json', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', RATCHET_ACTOR: 'agent' },
    timeout: 60_000,
  });
  expect(r.stdout, `ratchet ${args.join(' ')}: ${r.stderr}`).not.toBe('');
  return { status: r.status, document: JSON.parse(r.stdout) as Record<string, unknown> };
}

/** What differs between two runs by nature: ids, times, timings, the project's own path. */
function normalised(doc: unknown, dir: string): unknown {
  const text = JSON.stringify(doc)
    .replaceAll(dir, '<project>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
  return JSON.parse(text, (key, value: unknown) => (/(Ms|^ms)$/.test(key) ? '<ms>' : key === 'templateSha256' ? '<sha256 of a template with times in it>' : value)) as unknown;
}

/** Every file under `dir` (but the activity log's times and the session's) with its bytes: what a refusal must leave alone. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, 'latin1'));
    }
  };
  walk(dir);
  return files;
}

describe('the lifecycle and plan tools are typed operations', () => {
  test('each converted tool has an operation and builds no argv', () => {
    for (const name of CONVERTED) {
      const spec = TOOLS.find((t) => t.name === name);
      expect(spec, name).toBeDefined();
      expect(typeof spec!.operation, name).toBe('function');
      expect('argv' in spec!, name).toBe(false);
    }
  });
});

describe('a whole task through the tools alone, in process: no command line is built or run', () => {
  test('task_start, run_plan, run_next/run_done, task_close, lessons_extract, task_submit, run_status', { timeout: 120_000 }, async () => {
    const { invokeTool } = await import('../src/invoke.js');
    const dir = taskProject();
    const used = new Set<string>();
    const tool = async (name: string, args: Record<string, unknown> = {}) => {
      const spec = TOOLS.find((t) => t.name === name)!;
      used.add(name);
      return (await invokeTool(spec, args, { project: dir, env: { ...process.env, NO_COLOR: '1' } })) as ToolCall;
    };
    const okDoc = async (name: string, args: Record<string, unknown> = {}) => {
      const r = await tool(name, args);
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      return r.structuredContent as Record<string, unknown>;
    };

    expect(await okDoc('task_start', { task_id: 'T-1', network: false })).toMatchObject({ ok: true, taskId: 'T-1', state: 'PLANNING' });
    expect(await okDoc('run_plan', { plan: 'plans/main.txt' })).toMatchObject({ ok: true, state: 'EXECUTING', plan: 'plans/main.txt' });
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) {
      const next = (await okDoc('run_next')) as { state: string; next: { step?: { line: string } } };
      if (next.state !== 'EXECUTING') break;
      lines.push(next.next.step!.line);
      expect(await okDoc('run_done', { message: `step ${i + 1}` })).toMatchObject({ ok: true });
    }
    expect(lines).toEqual(['set_plan main', 'plan_step_complete go', 'set_plan sub', 'plan_step_complete go', 'run_in_bash_session close', 'run_in_bash_session close']);
    expect(await okDoc('task_close', { task_id: 'T-1' })).toMatchObject({ ok: true, state: 'POST_MORTEM', postMortem: 'postmortems/T-1.md' });
    // The untouched template: refused with what is missing, a tool error with the document.
    const refused = await tool('task_submit', { task_id: 'T-1' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ ok: false, state: 'POST_MORTEM' });
    const pm = join(dir, 'postmortems/T-1.md');
    writeFileSync(pm, fillPostMortem(readFileSync(pm, 'utf8')));
    await okDoc('lessons_extract', { postmortem: 'postmortems/T-1.md' });
    expect(await okDoc('task_submit', { task_id: 'T-1' })).toMatchObject({ ok: true, state: 'DONE' });
    expect(await okDoc('run_status')).toMatchObject({ ok: true, session: { taskId: 'T-1', state: 'DONE' } });

    // Every tool used is an operation, and the CLI's command line never ran.
    for (const name of used) expect('argv' in TOOLS.find((t) => t.name === name)!, name).toBe(false);
    expect(argvRuns).toEqual([]);
    const log = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8');
    expect(log.split('\n').filter((l) => l.includes('"STEP_COMPLETE"'))).toHaveLength(6);
    expect(log).toContain('"TASK_SUBMIT"');
  });
});

/**
 * Two identical projects: `cli` where `ratchet --json` runs, `mcp` where the server runs the tool.
 * `same` runs one command through both faces and checks the documents (normalised) and that the
 * exit code and the tool's isError say the same thing.
 */
describe('each tool answers as `ratchet --json` does, on twin projects', () => {
  let cli: string;
  let mcp: string;
  let server: Connected | undefined;
  const setup = async (prepare: (dir: string) => void): Promise<void> => {
    cli = tempDir('ratchet-mcp-life-cli-');
    mcp = tempDir('ratchet-mcp-life-mcp-');
    for (const dir of [cli, mcp]) {
      ratchet(['init', '--quiet'], dir);
      prepare(dir);
    }
    server = await connect(mcp, { RATCHET_MCP_TOOLS: 'all' });
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const both = (args: string[]): void => {
    for (const dir of [cli, mcp]) ratchet([...args, '--quiet'], dir);
  };
  const same = async (tool: string, args: Record<string, unknown>, cliArgs: string[]): Promise<{ status: number | null; typed: ToolCall; document: Record<string, unknown> }> => {
    const typed = await call(server!, tool, args);
    const ran = cliJson(cli, cliArgs);
    expect(normalised(typed.structuredContent, mcp), tool).toEqual(normalised(ran.document, cli));
    const success = ran.status === 0 || (ran.status === 1 && FINDINGS.has(tool));
    expect(typed.isError ?? false, `${tool}: exit ${ran.status}`).toBe(!success);
    return { status: ran.status, typed, document: ran.document };
  };
  /** A refusal through both faces, each writing nothing. */
  const refused = async (tool: string, args: Record<string, unknown>, cliArgs: string[], exitCode: number): Promise<ToolCall> => {
    const before = [snapshot(cli), snapshot(mcp)];
    const r = await same(tool, args, cliArgs);
    expect(r.status, tool).toBe(exitCode);
    expect(r.typed.isError, tool).toBe(true);
    expect(snapshot(cli), `${tool} wrote on a refusal (cli)`).toEqual(before[0]);
    expect(snapshot(mcp), `${tool} wrote on a refusal (mcp)`).toEqual(before[1]);
    return r.typed;
  };
  const session = (dir: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as Record<string, unknown>;

  test('task_start: started (task-transition.v1 with the orientation), refused while in progress, a broken agent_meta.json fails orientation (exit 2)', { timeout: 120_000 }, async () => {
    await setup(() => undefined);
    const started = await same('task_start', { task_id: 'T-1', network: false }, ['task', 'start', '--task-id', 'T-1', '--no-network']);
    expect(started.document).toMatchObject({ ok: true, state: 'PLANNING', report: '.ratchet/orientation.json', orientation: { level3: { network: { skipped: true } } } });
    expect(started.document.$schema).toContain('task-transition.v1');
    expect(normalised(session(mcp), mcp)).toEqual(normalised(session(cli), cli));
    // The same TASK_START logged, but by the agent through MCP: the tool never acts as the shell's user.
    const logged = (dir: string) => JSON.parse(readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8').split('\n')[0]!) as { actor: unknown; log_id?: string };
    const [viaTool, viaShell] = [logged(mcp), logged(cli)];
    expect(viaTool.actor).toMatchObject({ via: 'mcp' });
    expect(viaShell.actor).toMatchObject({ via: 'shell' });
    expect(normalised({ ...viaTool, actor: null }, mcp)).toEqual(normalised({ ...viaShell, actor: null }, cli));

    const busy = await refused('task_start', { task_id: 'T-2', network: false }, ['task', 'start', '--task-id', 'T-2', '--no-network'], 1);
    expect(busy.structuredContent).toMatchObject({ ok: false, error: { code: 'task-in-progress' } });
    expect(errorText(busy)).toContain('task T-1 is in progress');

    // A task id with a path in it: a usage error from both, nothing written.
    const bad = await refused('task_start', { task_id: '../x', network: false }, ['task', 'start', '--task-id', '../x', '--no-network'], 2);
    expect(bad.structuredContent).toMatchObject({ error: { code: 'bad-task-id' } });
  });

  test('task_start: orientation failing at level 1 leaves the task in ERROR with the place (exit 2), the same through both faces', { timeout: 120_000 }, async () => {
    await setup((dir) => writeFileSync(join(dir, 'knowledge_core/agent_meta.json'), '{"name": '));
    const failed = await same('task_start', { task_id: 'T-1', network: false }, ['task', 'start', '--task-id', 'T-1', '--no-network']);
    expect(failed.status).toBe(2);
    expect(failed.document).toMatchObject({ ok: false, state: 'ERROR', error: { file: 'knowledge_core/agent_meta.json' } });
    expect(errorText(failed.typed)).toContain('knowledge_core/agent_meta.json');
    expect(session(mcp)).toMatchObject({ state: 'ERROR' });
    // The file that does not parse is left as it was.
    expect(readFileSync(join(mcp, 'knowledge_core/agent_meta.json'), 'utf8')).toBe('{"name": ');
  });

  test('run_plan: a plan with lint errors is rejected with its findings (exit 1, the task stays in PLANNING); a clean one is accepted; a missing file, a wrong state and a lower dialect are refused', { timeout: 120_000 }, async () => {
    await setup((dir) => {
      writeFileSync(join(dir, 'bad.txt'), 'plan_step_complete go\nset_plan p\n');
      writeFileSync(join(dir, 'plan.txt'), 'set_plan p\nplan_step_complete go\ncreate_file_with_block notes.md\nrun_in_bash_session close\n');
      writeFileSync(join(dir, 'loose.dialect.json'), JSON.stringify({ id: 'loose', fsm: 'protocols/fdc.fsm.json', commands: { set_plan: { symbol: 'plan_op' } } }));
    });
    const none = await refused('run_plan', { plan: 'plan.txt' }, ['run', 'plan', 'plan.txt'], 1);
    expect(none.structuredContent).toMatchObject({ error: { code: 'no-session' } });
    both(['task', 'start', '--task-id', 'T-1', '--no-network']);

    const rejected = await same('run_plan', { plan: 'bad.txt' }, ['run', 'plan', 'bad.txt']);
    expect(rejected.status).toBe(1);
    expect(rejected.document).toMatchObject({ ok: false, state: 'PLANNING', plan: 'bad.txt' });
    expect(JSON.stringify(rejected.document.findings)).toContain('"severity":"error"');
    expect(session(mcp)).toMatchObject({ state: 'PLANNING' });

    await refused('run_plan', { plan: 'missing.txt' }, ['run', 'plan', 'missing.txt'], 2);
    const lower = await refused('run_plan', { plan: 'plan.txt', dialect: 'loose.dialect.json' }, ['run', 'plan', '--dialect', 'loose.dialect.json', 'plan.txt'], 2);
    expect(lower.structuredContent).toMatchObject({ error: { code: 'dialect-differs' } });
    // A plan outside the project never reaches the operation.
    expect(errorText(await call(server!, 'run_plan', { plan: '../plan.txt' }))).toMatch(/outside|project/);

    const accepted = await same('run_plan', { plan: 'plan.txt' }, ['run', 'plan', 'plan.txt']);
    expect(accepted.document).toMatchObject({ ok: true, state: 'EXECUTING', plan: 'plan.txt', warnings: 0, next: { step: { line: 'set_plan p' } } });
    expect(normalised(session(mcp), mcp)).toEqual(normalised(session(cli), cli));
    // EXECUTING: another plan is refused by the lifecycle (exit 1).
    await refused('run_plan', { plan: 'plan.txt' }, ['run', 'plan', 'plan.txt'], 1);
  });

  test('run_done: steps recorded, a step whose effect is not seen is refused and stays current, a failed step moves to ERROR (exit 1)', { timeout: 120_000 }, async () => {
    await setup((dir) => writeFileSync(join(dir, 'plan.txt'), 'set_plan p\nplan_step_complete go\ncreate_file_with_block notes.md\nrun_in_bash_session close\n'));
    both(['task', 'start', '--task-id', 'T-1', '--no-network']);
    const early = await refused('run_done', {}, ['run', 'done'], 1);
    expect(early.structuredContent).toMatchObject({ error: { code: 'no-step' } });
    both(['run', 'plan', 'plan.txt']);

    const first = await same('run_done', { message: 'planned' }, ['run', 'done', '--message', 'planned']);
    expect(first.document).toMatchObject({ ok: true, state: 'EXECUTING', done: { line: 'set_plan p' }, verified: { how: 'trust' } });
    await same('run_done', {}, ['run', 'done']);
    // notes.md was never created: not done, nothing written, the step still current.
    const notDone = await refused('run_done', {}, ['run', 'done'], 1);
    expect(notDone.structuredContent).toMatchObject({ ok: false, error: { code: 'effect-not-seen' } });
    expect(errorText(notDone)).toContain('create_file_with_block notes.md');
    const empty = await refused('run_done', { message: '' }, ['run', 'done', '--message', ''], 2);
    expect(errorText(empty)).toContain('--message must not be empty');

    for (const dir of [cli, mcp]) writeFileSync(join(dir, 'notes.md'), 'notes\n');
    const created = await same('run_done', {}, ['run', 'done']);
    expect(created.document).toMatchObject({ ok: true, verified: { how: 'disk' }, next: { step: { line: 'run_in_bash_session close' } } });
    const failed = await same('run_done', { failed: true, message: 'the close failed' }, ['run', 'done', '--failed', '--message', 'the close failed']);
    expect(failed.status).toBe(1);
    expect(failed.document).toMatchObject({ ok: true, state: 'ERROR' });
    expect(normalised(session(mcp), mcp)).toEqual(normalised(session(cli), cli));
  });

  test('task_close and task_submit: the wrong task and a wrong state refused, a post-mortem in the way refused, the close, a retry, the missing list, the submit', { timeout: 180_000 }, async () => {
    await setup((dir) => writeFileSync(join(dir, 'plan.txt'), 'set_plan p\nplan_step_complete go\nrun_in_bash_session close\n'));
    both(['task', 'start', '--task-id', 'T-1', '--no-network']);
    // PLANNING: the lifecycle does not close a task that did not run (abandoning needs a person's reason on the CLI).
    await refused('task_close', { task_id: 'T-1' }, ['task', 'close', '--task-id', 'T-1'], 1);
    both(['run', 'plan', 'plan.txt']);
    for (let i = 0; i < 3; i++) both(['run', 'done']);

    const wrong = await refused('task_close', { task_id: 'T-9' }, ['task', 'close', '--task-id', 'T-9'], 2);
    expect(wrong.structuredContent).toMatchObject({ error: { code: 'wrong-task' } });
    // A post-mortem written before the close is never overwritten.
    for (const dir of [cli, mcp]) {
      mkdirSync(join(dir, 'postmortems'), { recursive: true });
      writeFileSync(join(dir, 'postmortems/T-1.md'), 'mine\n');
    }
    const inTheWay = await refused('task_close', { task_id: 'T-1' }, ['task', 'close', '--task-id', 'T-1'], 1);
    expect(inTheWay.structuredContent).toMatchObject({ error: { code: 'postmortem-exists' } });
    for (const dir of [cli, mcp]) rmSync(join(dir, 'postmortems/T-1.md'));

    const closed = await same('task_close', { task_id: 'T-1' }, ['task', 'close', '--task-id', 'T-1']);
    expect(closed.document).toMatchObject({ ok: true, state: 'POST_MORTEM', postMortem: 'postmortems/T-1.md', outcome: 'SUCCESS', alreadyClosed: false });
    expect(readFileSync(join(mcp, 'postmortems/T-1.md'), 'utf8').replace(/\d{4}-[\d:T.-]+Z/g, '')).toBe(readFileSync(join(cli, 'postmortems/T-1.md'), 'utf8').replace(/\d{4}-[\d:T.-]+Z/g, ''));
    // Closing again after the report was lost writes only what is missing.
    for (const dir of [cli, mcp]) rmSync(join(dir, 'postmortems/T-1.md'));
    const retried = await same('task_close', { task_id: 'T-1' }, ['task', 'close', '--task-id', 'T-1']);
    expect(retried.document).toMatchObject({ ok: true, alreadyClosed: true, repaired: ['wrote the missing post-mortem postmortems/T-1.md'] });

    const wrongSubmit = await refused('task_submit', { task_id: 'T-9' }, ['task', 'submit', '--task-id', 'T-9'], 2);
    expect(wrongSubmit.structuredContent).toMatchObject({ error: { code: 'wrong-task' } });
    const missing = await refused('task_submit', { task_id: 'T-1' }, ['task', 'submit', '--task-id', 'T-1'], 1);
    expect(missing.structuredContent).toMatchObject({ ok: false, state: 'POST_MORTEM', missing: expect.arrayContaining([expect.objectContaining({ code: 'postmortem-section-empty' }), expect.objectContaining({ code: 'no-lessons' })]) as unknown });

    for (const dir of [cli, mcp]) {
      const pm = join(dir, 'postmortems/T-1.md');
      writeFileSync(pm, fillPostMortem(readFileSync(pm, 'utf8')));
      ratchet(['lessons', 'extract', 'postmortems/T-1.md'], dir);
    }
    const submitted = await same('task_submit', { task_id: 'T-1' }, ['task', 'submit', '--task-id', 'T-1']);
    expect(submitted.document).toMatchObject({ ok: true, state: 'DONE' });
    expect(normalised(session(mcp), mcp)).toEqual(normalised(session(cli), cli));
    // DONE: nothing more to submit.
    await refused('task_submit', { task_id: 'T-1' }, ['task', 'submit', '--task-id', 'T-1'], 1);
  });

  test('research_plan and research_done: a plan written without a task, the cycle entered from PLANNING, a missing report refused, the research finished; a wrong state refused writing nothing', { timeout: 180_000 }, async () => {
    await setup(() => undefined);
    const alone = await same('research_plan', { topic: 'store locks' }, ['research', 'plan', 'store locks']);
    expect(alone.document).toMatchObject({ ok: true, topic: 'store locks', plan: 'research/store-locks/plan.txt', lifecycle: null });
    expect(readFileSync(join(mcp, 'research/store-locks/plan.txt'), 'utf8')).toBe(readFileSync(join(cli, 'research/store-locks/plan.txt'), 'utf8'));
    const blank = await refused('research_plan', { topic: '   ' }, ['research', 'plan', '   '], 2);
    expect(errorText(blank)).toContain('missing <topic>');
    await refused('research_done', {}, ['research', 'done'], 1);

    both(['task', 'start', '--task-id', 'T-1', '--no-network']);
    const entered = await same('research_plan', { topic: 'kill -9 and the lock' }, ['research', 'plan', 'kill -9 and the lock']);
    expect(entered.document).toMatchObject({ ok: true, lifecycle: { state: 'RESEARCHING' } });
    const report = (entered.document as { report: string }).report;
    // RESEARCHING: research cannot start again, and nothing is written for it.
    const again = await refused('research_plan', { topic: 'another' }, ['research', 'plan', 'another'], 1);
    expect(existsSync(join(mcp, 'research/another'))).toBe(false);
    expect(errorText(again)).toMatch(/RESEARCHING/);

    // The research plan's steps, run by the CLI in both projects alike; the report written at its step.
    for (const dir of [cli, mcp]) {
      for (let i = 0; i < 20; i++) {
        const next = cliJson(dir, ['run', 'next']).document as { state: string; next: { step?: { line: string } } };
        if (next.state !== 'RESEARCHING') break;
        const line = next.next.step!.line;
        if (line.startsWith('overwrite_file_with_block')) writeFileSync(join(dir, report), '# Report\n');
        if (line === 'run_in_bash_session close') writeFileSync(join(dir, report), '# Report\n\nThe kernel releases the lock of a killed process.\n');
        ratchet(['run', 'done', '--message', 'the questions and the search keywords'], dir);
      }
    }
    expect(session(mcp)).toMatchObject({ state: 'AWAITING_RESULT' });
    // The report emptied to its title: no findings, refused, nothing written.
    for (const dir of [cli, mcp]) writeFileSync(join(dir, report), '# Report\n');
    const noFindings = await refused('research_done', {}, ['research', 'done'], 1);
    expect(noFindings.structuredContent).toMatchObject({ ok: false, state: 'AWAITING_RESULT', error: { code: 'research-report-empty', file: report } });
    for (const dir of [cli, mcp]) writeFileSync(join(dir, report), '# Report\n\nThe kernel releases the lock of a killed process.\n');
    const done = await same('research_done', { message: 'found' }, ['research', 'done', '--message', 'found']);
    expect(done.document).toMatchObject({ ok: true, state: 'PLANNING' });
    expect(normalised(session(mcp), mcp)).toEqual(normalised(session(cli), cli));
    // Research again, given up: a failure report (exit 1), the task in ERROR, through both faces.
    both(['research', 'plan', 'a second question']);
    const gaveUp = await same('research_done', { failed: true, message: 'no sources' }, ['research', 'done', '--failed', '--message', 'no sources']);
    expect(gaveUp.status).toBe(1);
    expect(gaveUp.document).toMatchObject({ ok: true, state: 'ERROR' });
    expect(normalised(session(mcp), mcp)).toEqual(normalised(session(cli), cli));
  });

  test('plan_lint (findings: exit 1 is a result), plan_analyze, plan_registry_register/deregister: results, refusals and input errors as the CLI gives them', { timeout: 120_000 }, async () => {
    await setup((dir) => {
      writeFileSync(join(dir, 'good.txt'), 'set_plan p\nplan_step_complete go\nrun_in_bash_session close\n');
      writeFileSync(join(dir, 'bad.txt'), 'plan_step_complete go\nset_plan p\n');
      writeFileSync(join(dir, 'calls.txt'), 'set_plan p\nplan_step_complete go\ncall_plan nowhere\nrun_in_bash_session close\n');
    });
    const clean = await same('plan_lint', { plan: 'good.txt' }, ['plan', 'lint', 'good.txt']);
    expect(clean.document).toMatchObject({ ok: true, errorCount: 0 });
    const findings = await same('plan_lint', { plan: 'bad.txt' }, ['plan', 'lint', 'bad.txt']);
    expect(findings.status).toBe(1);
    expect(findings.typed.isError).toBeFalsy();
    expect(findings.document).toMatchObject({ ok: false });
    await refused('plan_lint', { plan: 'none.txt' }, ['plan', 'lint', 'none.txt'], 2);
    await refused('plan_lint', { plan: 'good.txt', fsm: 'none.fsm.json' }, ['plan', 'lint', '--fsm', 'none.fsm.json', 'good.txt'], 2);

    const analysed = await same('plan_analyze', { plan: 'good.txt' }, ['plan', 'analyze', 'good.txt']);
    expect(analysed.document).toMatchObject({ ok: true, plan: 'good.txt', modality: expect.any(String) as unknown });
    await same('plan_analyze', { plan: 'calls.txt' }, ['plan', 'analyze', 'calls.txt']);
    await refused('plan_analyze', { plan: 'none.txt' }, ['plan', 'analyze', 'none.txt'], 2);

    const registered = await same('plan_registry_register', { name: 'good', path: 'good.txt' }, ['plan', 'registry', 'register', 'good', 'good.txt']);
    expect(registered.document).toEqual({ ok: true, registry: 'knowledge_core/plan_registry.json', name: 'good', path: 'good.txt' });
    expect(readFileSync(join(mcp, 'knowledge_core/plan_registry.json'), 'utf8')).toBe(readFileSync(join(cli, 'knowledge_core/plan_registry.json'), 'utf8'));
    const duplicate = await refused('plan_registry_register', { name: 'good', path: 'bad.txt' }, ['plan', 'registry', 'register', 'good', 'bad.txt'], 2);
    expect(errorText(duplicate)).toContain('--force');
    await refused('plan_registry_register', { name: 'ghost', path: 'ghost.txt' }, ['plan', 'registry', 'register', 'ghost', 'ghost.txt'], 2);
    await same('plan_registry_register', { name: 'good', path: 'bad.txt', force: true }, ['plan', 'registry', 'register', '--force', 'good', 'bad.txt']);
    const deregistered = await same('plan_registry_deregister', { name: 'good' }, ['plan', 'registry', 'deregister', 'good']);
    expect(deregistered.document).toMatchObject({ ok: true, name: 'good', path: 'bad.txt' });
    const unknown = await refused('plan_registry_deregister', { name: 'good' }, ['plan', 'registry', 'deregister', 'good'], 2);
    expect(unknown.structuredContent).toMatchObject({ error: { file: 'knowledge_core/plan_registry.json' } });
    // A registry file edited by hand into something that does not parse: refused, left as it is.
    for (const dir of [cli, mcp]) writeFileSync(join(dir, 'knowledge_core/plan_registry.json'), '{"plans": [');
    await refused('plan_registry_register', { name: 'x', path: 'good.txt' }, ['plan', 'registry', 'register', 'x', 'good.txt'], 2);
    expect(readFileSync(join(mcp, 'knowledge_core/plan_registry.json'), 'utf8')).toBe('{"plans": [');
    // A registry outside the project never reaches the operation.
    expect(errorText(await call(server!, 'plan_registry_register', { name: 'x', path: 'good.txt', registry: '../reg.json' }))).toMatch(/outside|project/);
  });
});
