/**
 * The JIXO tools call the CLI's typed operations (src/operations/jixo*.ts) with their arguments as
 * input: no argv is built, nothing printed is parsed. Each answers as `ratchet --json jixo ...` does
 * for the same call, on two identical projects (one driven by the CLI as the agent, one by the MCP
 * server), for a success and for a refusal or bad input; a refusal writes nothing; a log lock taken
 * through the tool is an obligation the Stop hook holds the agent to.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_EFFECTS } from '@ratchet/cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { call, connect, ratchet, ratchetBin, tempDir, type Connected, type ToolCall } from './helpers.js';

const JIXO = ['jixo_check', 'jixo_triage', 'jixo_lock', 'jixo_unlock', 'jixo_task_list', 'jixo_task_lock', 'jixo_task_finish', 'jixo_task_add', 'jixo_task_edit', 'jixo_log_add', 'jixo_exit', 'jixo_clarify'];
const L = '.jixo/docs.log.md';
const J = '.jixo/docs.job.md';
const LOG = '---\ntitle: "_待定_"\nprogress: "0%"\n---\n\n## Roadmap\n\n- [ ] 1. Intro\n  - status: Pending\n- [ ] 2. Tutorial\n  - status: Pending\n- [ ] 3. Reference\n  - status: Pending\n\n## Work Log\n';
const SID = 'sess0034-jixo-4b1c-aaaa-000000000034';

function jixoProject(): string {
  const dir = tempDir('ratchet-mcp-typed-jixo-');
  ratchet(['init', '--quiet'], dir);
  mkdirSync(join(dir, '.jixo'));
  writeFileSync(join(dir, J), '---\nname: docs\n---\n\nWrite docs.\n');
  writeFileSync(join(dir, L), LOG);
  return dir;
}

/** This process's environment without what an outer `jixo run` would set (both faces run without it). */
function outerEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  for (const key of ['RATCHET_JIXO_JOB', 'RATCHET_JIXO_JOB_FILE', 'RATCHET_JIXO_ACTIVE', 'RATCHET_JIXO_OWNER_PID']) delete env[key];
  return env;
}

/** `ratchet --json <args>` in `dir` as the agent: its exit code and document. */
function cliJson(dir: string, args: string[]): { status: number | null; document: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [ratchetBin, '--json', ...args], { cwd: dir, encoding: 'utf8', env: { ...outerEnv(), RATCHET_ACTOR: 'agent' }, timeout: 60_000 });
  return { status: r.status, document: JSON.parse(r.stdout) as Record<string, unknown> };
}

/** A document with what differs between two runs made apart (the project, times, pids) made equal. */
function normal(value: unknown, dir: string): unknown {
  const text = JSON.stringify(value)
    .split(dir)
    .join('<project>')
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/"pid":\d+/g, '"pid":0')
    .replace(/"(pidStart|token)":"[^"]*"/g, '"$1":"<$1>"')
    .replace(/pid \d+/g, 'pid <pid>');
  return JSON.parse(text) as unknown;
}

/** The exit code a tool result stands for, as the MCP server maps it (findings: exit 1 is a result). */
function sameAnswer(tool: ToolCall, cli: { status: number | null; document: Record<string, unknown> }, dirs: { cli: string; mcp: string }, findings = false): void {
  expect(normal(tool.structuredContent, dirs.mcp)).toEqual(normal(cli.document, dirs.cli));
  expect(tool.isError === true).toBe(cli.status !== 0 && !(findings && cli.status === 1));
}

interface HookJson {
  decision?: string;
  reason?: string;
}

function stop(dir: string): string | undefined {
  const r = spawnSync(process.execPath, [ratchetBin, 'hook', 'stop'], { cwd: dir, input: JSON.stringify({ session_id: SID, cwd: dir, hook_event_name: 'Stop' }), encoding: 'utf8', env: { ...process.env, CLAUDE_PROJECT_DIR: dir, RATCHET_RUNNER: '' }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const answer = r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as HookJson);
  return answer?.decision === 'block' ? answer.reason : undefined;
}

describe('the JIXO tools run typed operations', () => {
  let cliDir: string;
  let mcpDir: string;
  let server: Connected;
  const dirs = (): { cli: string; mcp: string } => ({ cli: cliDir, mcp: mcpDir });
  /** The same call through both faces on their own projects: the tool's answer is the CLI's. */
  const both = async (tool: string, args: Record<string, unknown>, argv: string[], findings = false) => {
    const typed = await call(server, tool, args);
    const cli = cliJson(cliDir, argv);
    sameAnswer(typed, cli, dirs(), findings);
    return { typed, cli };
  };
  const logOf = (dir: string): string => readFileSync(join(dir, L), 'utf8');

  beforeAll(async () => {
    cliDir = jixoProject();
    mcpDir = jixoProject();
    server = await connect(mcpDir, { RATCHET_MCP_TOOLS: 'all' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  test('every JIXO tool is an operation, not a command line', () => {
    for (const name of JIXO) {
      const spec = TOOLS.find((t) => t.name === name)!;
      expect(spec, name).toBeDefined();
      expect(typeof spec.operation, name).toBe('function');
      expect('argv' in spec, name).toBe(false);
    }
  });

  test('a tool with several commands names the one each call is, and the effects table knows it as this tool', () => {
    const finish = TOOLS.find((t) => t.name === 'jixo_task_finish')!;
    for (const outcome of ['complete', 'fail', 'pause']) expect(finish.command!({ log: L, id: '1', runner: 'r', outcome, summary: 's' })).toBe(`jixo task ${outcome}`);
    const edit = TOOLS.find((t) => t.name === 'jixo_task_edit')!;
    expect(edit.command!({ log: L, runner: 'r', action: 'title', title: 't' })).toBe('jixo title');
    for (const action of ['unblock', 'edit', 'depends', 'remove', 'retry', 'cancel']) expect(edit.command!({ log: L, runner: 'r', action, id: '1' })).toBe(`jixo task ${action}`);
    for (const spec of [finish, edit]) {
      for (const command of spec.commands) expect(COMMAND_EFFECTS[command]?.mcp, command).toBe(spec.name);
    }
  });

  test('check: a good log, a broken log (findings: a result), a missing file (exit 2)', { timeout: 120_000 }, async () => {
    const good = await both('jixo_check', { file: L }, ['jixo', 'check', L], true);
    expect(good.cli.status).toBe(0);
    expect(good.typed.structuredContent).toMatchObject({ ok: true, kind: 'log' });
    const job = await both('jixo_check', { file: J }, ['jixo', 'check', J], true);
    expect(job.typed.structuredContent).toMatchObject({ ok: true, kind: 'job' });
    for (const dir of [cliDir, mcpDir]) writeFileSync(join(dir, '.jixo/broken.log.md'), '---\ntitle: x\n---\n\n## Roadmap\n\n- [ ] 1. A\n  - status: Bogus\n');
    const broken = await both('jixo_check', { file: '.jixo/broken.log.md' }, ['jixo', 'check', '.jixo/broken.log.md'], true);
    expect(broken.cli.status).toBe(1);
    expect(broken.typed.isError).toBeFalsy();
    expect(broken.typed.structuredContent).toMatchObject({ ok: false });
    const missing = await both('jixo_check', { file: '.jixo/none.log.md' }, ['jixo', 'check', '.jixo/none.log.md'], true);
    expect(missing.cli.status).toBe(2);
    expect(missing.typed.isError).toBe(true);
  });

  test('task list, lock (and another runner refused, nothing written), fail; triage elects a Planner', { timeout: 180_000 }, async () => {
    const listed = await both('jixo_task_list', { log: L }, ['jixo', 'task', 'list', L]);
    expect((listed.typed.structuredContent as { tasks: unknown[] }).tasks).toHaveLength(3);
    const locked = await both('jixo_task_lock', { log: L, id: '1', runner: 'worker' }, ['jixo', 'task', 'lock', L, '1', '--runner', 'worker']);
    expect(locked.typed.structuredContent).toMatchObject({ action: 'lock', task: { id: '1', status: 'Locked', runner: 'worker' } });
    const before = logOf(mcpDir);
    const taken = await both('jixo_task_lock', { log: L, id: '1', runner: 'other' }, ['jixo', 'task', 'lock', L, '1', '--runner', 'other']);
    expect(taken.cli.status).toBe(1);
    expect(taken.typed.structuredContent).toMatchObject({ ok: false, error: { code: 'already-locked' } });
    expect(logOf(mcpDir)).toBe(before);
    // Finishing a task this runner does not hold: refused, nothing written.
    const wrong = await both('jixo_task_finish', { log: L, id: '2', runner: 'worker', outcome: 'complete', summary: 'x' }, ['jixo', 'task', 'complete', L, '2', '--runner', 'worker', '--summary', 'x']);
    expect(wrong.cli.status).toBe(1);
    expect(logOf(mcpDir)).toBe(before);
    const failed = await both('jixo_task_finish', { log: L, id: '1', runner: 'worker', outcome: 'fail', summary: 'broke' }, ['jixo', 'task', 'fail', L, '1', '--runner', 'worker', '--summary', 'broke']);
    expect(failed.typed.structuredContent).toMatchObject({ action: 'fail', task: { status: 'Failed' }, entry: { result: 'Failed' } });
    const dry = await both('jixo_triage', { job: J, runner: 'planner', dry_run: true }, ['jixo', 'triage', J, '--runner', 'planner', '--dry-run']);
    expect(dry.typed.structuredContent).toMatchObject({ kind: 'role', role: 'Planner' });
    const triaged = await both('jixo_triage', { job: J, runner: 'planner' }, ['jixo', 'triage', J, '--runner', 'planner']);
    expect(triaged.typed.structuredContent).toMatchObject({ kind: 'role', role: 'Planner' });
    const noJob = await both('jixo_triage', { job: '.jixo/none.job.md', runner: 'planner' }, ['jixo', 'triage', '.jixo/none.job.md', '--runner', 'planner']);
    expect(noJob.cli.status).toBe(2);
  });

  test('the Planner: refused unelected or without the lock; under the lock it edits the roadmap as the CLI does, and the lock holds the Stop until unlocked', { timeout: 300_000 }, async () => {
    const before = logOf(mcpDir);
    const rogue = await both('jixo_task_edit', { log: L, runner: 'rogue', action: 'edit', id: '2', title: 'Other' }, ['jixo', 'task', 'edit', L, '2', '--runner', 'rogue', '--title', 'Other']);
    expect(rogue.typed.structuredContent).toMatchObject({ ok: false, error: { code: 'not-planner' } });
    const unlocked = await both('jixo_task_add', { log: L, runner: 'planner', id: '4', title: 'Index' }, ['jixo', 'task', 'add', L, '--runner', 'planner', '--id', '4', '--title', 'Index']);
    expect(unlocked.typed.structuredContent).toMatchObject({ ok: false, error: { code: 'not-planner' } });
    expect(logOf(mcpDir)).toBe(before);

    expect(stop(mcpDir)).toBeUndefined();
    const lock = await both('jixo_lock', { log: L, runner: 'planner' }, ['jixo', 'lock', L, '--runner', 'planner']);
    expect(lock.typed.structuredContent).toMatchObject({ ok: true, file: L, holder: { runner: 'planner' } });
    // The lock taken through the tool is the agent's obligation: recorded, and the Stop is held.
    const opened = JSON.parse(readFileSync(join(mcpDir, '.ratchet/hooks/opened.json'), 'utf8')) as { entries: { kind: string; key: string; runner?: string; via: string }[] };
    expect(opened.entries).toContainEqual(expect.objectContaining({ kind: 'jixo-lock', key: L, runner: 'planner', via: 'mcp' }));
    expect(stop(mcpDir)).toContain('planner holds the JIXO log lock');

    const moves: [string, Record<string, unknown>, string[]][] = [
      ['jixo_task_edit', { action: 'title', title: 'Document the CLI' }, ['jixo', 'title', L, 'Document the CLI']],
      ['jixo_task_edit', { action: 'edit', id: '2', title: 'Tutorial and FAQ' }, ['jixo', 'task', 'edit', L, '2', '--title', 'Tutorial and FAQ']],
      ['jixo_task_add', { id: '4', title: 'Index', depends_on: ['1'] }, ['jixo', 'task', 'add', L, '--id', '4', '--title', 'Index', '--depends-on', '1']],
      ['jixo_task_add', { id: '5', title: 'Phase two', phase: true }, ['jixo', 'task', 'add', L, '--id', '5', '--title', 'Phase two', '--phase']],
      ['jixo_task_edit', { action: 'depends', id: '4', on: ['2', '3'] }, ['jixo', 'task', 'depends', L, '4', '--on', '2,3']],
      ['jixo_task_edit', { action: 'retry', id: '1' }, ['jixo', 'task', 'retry', L, '1']],
      ['jixo_task_edit', { action: 'cancel', id: '3', summary: 'merged into 2' }, ['jixo', 'task', 'cancel', L, '3', '--summary', 'merged into 2']],
      ['jixo_task_edit', { action: 'remove', id: '5' }, ['jixo', 'task', 'remove', L, '5']],
      ['jixo_log_add', { objective: 'Re-plan after task 1 failed', summary: 'retried 1, merged 3 into 2', result: 'Succeeded' }, ['jixo', 'log', 'add', L, '--objective', 'Re-plan after task 1 failed', '--summary', 'retried 1, merged 3 into 2', '--result', 'Succeeded']],
    ];
    for (const [tool, args, argv] of moves) {
      const r = await both(tool, { log: L, runner: 'planner', ...args }, [...argv, '--runner', 'planner']);
      expect(r.cli.status, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(r.cli.document)}`).toBe(0);
    }
    // A cycle is refused by both, and nothing is written.
    const planned = logOf(mcpDir);
    const cycle = await both('jixo_task_edit', { log: L, runner: 'planner', action: 'depends', id: '2', on: ['4'] }, ['jixo', 'task', 'depends', L, '2', '--on', '4', '--runner', 'planner']);
    expect(cycle.typed.isError).toBe(true);
    expect(logOf(mcpDir)).toBe(planned);
    // The two logs are the same text but for the times.
    const times = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>');
    expect(times(logOf(mcpDir))).toBe(times(logOf(cliDir)));
    expect(logOf(mcpDir)).toContain('title: "Document the CLI"');

    // An argument the action needs is refused by name (exit 2), before anything runs.
    const noId = await call(server, 'jixo_task_edit', { log: L, runner: 'planner', action: 'edit', title: 'x' });
    expect(noId.isError).toBe(true);
    expect(noId.structuredContent).toMatchObject({ ok: false, error: { code: 'bad-option', message: 'id is required for action edit' } });
    expect(logOf(mcpDir)).toBe(planned);

    const wrongUnlock = await both('jixo_unlock', { log: L, runner: 'rogue' }, ['jixo', 'unlock', L, '--runner', 'rogue']);
    expect(wrongUnlock.cli.status).toBe(1);
    expect(stop(mcpDir)).toContain('planner holds the JIXO log lock');
    const unlock = await both('jixo_unlock', { log: L, runner: 'planner' }, ['jixo', 'unlock', L, '--runner', 'planner']);
    expect(unlock.typed.structuredContent).toMatchObject({ ok: true, file: L });
    expect(stop(mcpDir)).toBeUndefined();
  });

  test('exit: standby is any runner\'s; a job end triage did not decide is refused and not written', { timeout: 180_000 }, async () => {
    const standby = await both('jixo_exit', { log: L, runner: 'worker', code: '2', reason: 'nothing for me now' }, ['jixo', 'exit', L, '--runner', 'worker', '--code', '2', '--reason', 'nothing for me now']);
    expect(standby.typed.structuredContent).toMatchObject({ ok: true, action: 'exit', exit: { code: 2 } });
    const before = logOf(mcpDir);
    const done = await both('jixo_exit', { log: L, runner: 'worker', code: '0', reason: 'all done' }, ['jixo', 'exit', L, '--runner', 'worker', '--code', '0', '--reason', 'all done']);
    expect(done.cli.status).toBe(1);
    expect(done.typed.structuredContent).toMatchObject({ ok: false, error: { code: 'not-planner' } });
    expect(logOf(mcpDir)).toBe(before);
  });

  test('clarify: asked after a default plan; refused on a job whose log has no plan, and for a missing job', { timeout: 180_000 }, async () => {
    const asked = await both('jixo_clarify', { job: J, id: 'q1', question: 'Which audience?' }, ['jixo', 'clarify', 'add', J, '--id', 'q1', '--question', 'Which audience?']);
    expect(asked.typed.structuredContent).toMatchObject({ ok: true, action: 'add', clarifications: [{ id: 'q1' }] });
    expect(readFileSync(join(mcpDir, J), 'utf8')).toContain('Which audience?');
    for (const dir of [cliDir, mcpDir]) writeFileSync(join(dir, '.jixo/empty.job.md'), '---\nname: empty\n---\n\nNothing planned yet.\n');
    const job = readFileSync(join(mcpDir, '.jixo/empty.job.md'), 'utf8');
    const noPlan = await both('jixo_clarify', { job: '.jixo/empty.job.md', id: 'q1', question: 'What?' }, ['jixo', 'clarify', 'add', '.jixo/empty.job.md', '--id', 'q1', '--question', 'What?']);
    expect(noPlan.cli.status).toBe(1);
    expect(noPlan.typed.structuredContent).toMatchObject({ ok: false, error: { code: 'no-default-plan' } });
    expect(readFileSync(join(mcpDir, '.jixo/empty.job.md'), 'utf8')).toBe(job);
    const missing = await both('jixo_clarify', { job: '.jixo/none.job.md', id: 'q1', question: 'What?' }, ['jixo', 'clarify', 'add', '.jixo/none.job.md', '--id', 'q1', '--question', 'What?']);
    expect(missing.typed.isError).toBe(true);
    expect(existsSync(join(mcpDir, '.jixo/none.job.md'))).toBe(false);
  });

  test('a log edited by hand (a status without its entry) is refused by both faces, and left as it is', { timeout: 120_000 }, async () => {
    const before = logOf(mcpDir);
    // A status changed by hand, without its Work Log entry: the audit refuses the log on both faces.
    for (const dir of [cliDir, mcpDir]) writeFileSync(join(dir, L), logOf(dir).replace('status: Pending', 'status: Completed'));
    const edited = logOf(mcpDir);
    expect(edited).not.toBe(before);
    const list = await both('jixo_task_list', { log: L }, ['jixo', 'task', 'list', L]);
    expect(list.typed.isError).toBe(true);
    const lock = await both('jixo_task_lock', { log: L, id: '2', runner: 'worker' }, ['jixo', 'task', 'lock', L, '2', '--runner', 'worker']);
    expect(lock.typed.isError).toBe(true);
    expect(logOf(mcpDir)).toBe(edited);
  });

  test('a path outside the project is refused before the operation runs', { timeout: 60_000 }, async () => {
    for (const [tool, args] of [
      ['jixo_lock', { log: '../x.log.md', runner: 'r' }],
      ['jixo_triage', { job: J, runner: 'r', log: '/etc/passwd' }],
      ['jixo_clarify', { job: '../../x.job.md', id: 'q', question: 'q' }],
    ] as const) {
      const r = await call(server, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.structuredContent, tool).toBeUndefined();
    }
    expect(existsSync(join(mcpDir, '../x.log.md'))).toBe(false);
  });
});
