/**
 * One small task, start to submit, in the real Claude Code with its sandbox on, by a compliant
 * scripted agent whose only hands on Ratchet's state are Ratchet's MCP tools (`mcp__ratchet__*`,
 * from the `.mcp.json` that `ratchet init --claude` wrote) and Claude Code's Write for the files
 * that are the agent's own (the plan, the code, the post-mortem). Asserted afterwards from the files:
 * the task is DONE with everything self-correction asks for on disk, the state is what Ratchet last
 * wrote (its journal), and the activity log attributes every lifecycle move to the agent's MCP calls
 * in this Claude Code session. Then the shortcut: the same agent running `ratchet task submit` from
 * its sandboxed shell is refused and the task stays where it was.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ratchet } from '../helpers.js';
import { freshHome, ratchetBin } from './claude.js';
import { compliantMoves, compliantProject, filledPostMortem, LESSON, MCP, PLAN, PLAN_TEXT, POSTMORTEM, runSession, SESSION_TIMEOUT, TARGET, TARGET_TEXT, TASK_ID, type Move } from './compliant-agent.js';
import { toolResults, type ModelServer } from './model-server.js';
import { sandboxAvailable } from './sandbox.js';

const available = sandboxAvailable();

interface LogEntry {
  session_id: string;
  phase: string;
  task: { id: string };
  action: { type: string; details: { tool?: string; claude_session?: string } };
  outcome: { status: string };
  actor?: { via: string; role?: string; tool_use_id?: string };
}

const log = (dir: string): LogEntry[] =>
  readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LogEntry);
const sessionFile = (dir: string): { taskId: string; state: string } => JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as never;
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The tool calls the model made, in order, from the last request Claude Code sent it. */
function toolUses(server: ModelServer): string[] {
  const last = server.requests.at(-1);
  return (last?.messages ?? []).flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use').map((b) => b.name ?? '') : []));
}

/** The journal entry Ratchet keeps for `file` (outside the project, under the session's HOME). */
function journalEntry(home: string, file: string): { sha256?: string; revision: number } | undefined {
  const root = join(home, '.local/state/ratchet/journal');
  if (!existsSync(root)) return undefined;
  const dir = realpathSync(join(file, '..'));
  for (const name of readdirSync(root).filter((n) => n.endsWith('.json'))) {
    const journal = JSON.parse(readFileSync(join(root, name), 'utf8')) as { dir: string; files: Record<string, { sha256?: string; revision: number }> };
    if (journal.dir === dir) return journal.files[file.slice(file.lastIndexOf('/') + 1)];
  }
  return undefined;
}

describe.skipIf(!available)('a compliant agent carries one task from task_start to task_submit through Ratchet\'s MCP tools alone', () => {
  test('orientation, plan, steps, one file, close, post-mortem, lessons, submit: DONE on disk, every move an MCP call of this session', { timeout: SESSION_TIMEOUT }, async () => {
    const home = freshHome();
    const dir = compliantProject(home);
    // What init --claude set up: the sandbox on, Ratchet's server in .mcp.json (no plugin).
    expect(JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8'))).toMatchObject({ sandbox: { enabled: true, allowUnsandboxedCommands: false }, env: { RATCHET_ACTOR: 'agent' } });
    expect(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8'))).toMatchObject({ mcpServers: { ratchet: { command: 'ratchet-mcp' } } });
    const { server, run, answered } = await runSession({ dir, home, moves: compliantMoves(dir) });

    // Claude Code offered Ratchet's default core tools under the .mcp.json server's name: all a whole task needs.
    const offered = (server.requests[0]?.tools ?? []).map((t) => t.name).filter((n) => n.startsWith(MCP));
    for (const tool of ['run_status', 'task_start', 'run_next', 'run_plan', 'run_done', 'task_close', 'lessons_extract', 'lessons_apply', 'task_submit']) expect(offered).toContain(`${MCP}${tool}`);
    // The whole script was used and nothing more: no Stop continuation sent the model back.
    expect(answered.at(-1)).toBe('final text');
    expect(answered).not.toContain('extra');
    expect(run.result?.is_error).toBe(false);

    // Every tool call succeeded, and the agent never touched the shell.
    const uses = toolUses(server);
    expect(uses).not.toContain('Bash');
    expect(uses.filter((u) => u.startsWith(MCP)).map((u) => u.slice(MCP.length))).toEqual([
      'run_status', 'task_start', 'run_next', 'run_plan', 'run_done', 'run_done', 'run_done', 'run_done', 'task_close', 'lessons_extract', 'lessons_apply', 'task_submit',
    ]);
    const results = toolResults(server);
    expect(results).toHaveLength(uses.length);
    for (const [i, r] of results.entries()) expect(r.isError, `${uses[i]}: ${r.text}`).toBe(false);
    expect(results.at(-1)!.text).toContain('DONE');

    // The final state, from the files.
    expect(sessionFile(dir)).toMatchObject({ taskId: TASK_ID, state: 'DONE' });
    expect(readFileSync(join(dir, PLAN), 'utf8')).toBe(PLAN_TEXT);
    expect(readFileSync(join(dir, TARGET), 'utf8')).toBe(TARGET_TEXT);
    const pm = readFileSync(join(dir, POSTMORTEM), 'utf8');
    expect(pm).toContain(LESSON);
    expect(pm).toContain('Added src/greet.ts, a greeting helper');
    const lessons = readFileSync(join(dir, 'knowledge_core/lessons.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; status: string });
    expect(lessons).toEqual([expect.objectContaining({ task_id: TASK_ID, status: 'applied' })]);
    expect(readFileSync(join(dir, 'protocols/04-fdc.protocol.json'), 'utf8')).toContain('"ratchet plan fmt"');
    // lessons_apply recompiled AGENTS.md with the lesson's change (whether that copy is current
    // once the task is over: the known fault below).
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toContain('ratchet plan fmt');
    // What is on disk is what Ratchet last wrote (its journal, outside the project): no hand edit.
    expect(journalEntry(home, join(dir, '.ratchet/session.json'))?.sha256).toBe(sha256(join(dir, '.ratchet/session.json')));
    expect(journalEntry(home, join(dir, 'knowledge_core/lessons.jsonl'))?.sha256).toBe(sha256(join(dir, 'knowledge_core/lessons.jsonl')));
    expect(ratchet(['doctor'], { cwd: dir, env: { HOME: home }, timeout: 60_000 }).status).toBe(0);

    // The audit: each lifecycle entry the commands wrote, and the agent's MCP call in this Claude
    // Code session that made it (logged by the PostToolUse hook, in order).
    const entries = log(dir);
    const lifecycle = entries.filter((e) => e.action.type !== 'TOOL_CALL').map((e) => e.action.type);
    expect(lifecycle).toEqual(['TASK_START', 'PLAN_ACCEPTED', 'STEP_COMPLETE', 'STEP_COMPLETE', 'STEP_COMPLETE', 'STEP_COMPLETE', 'TASK_END', 'TASK_SUBMIT']);
    const calls = entries.filter((e) => e.action.type === 'TOOL_CALL');
    expect(calls.every((e) => e.action.details.claude_session === run.sessionId && e.outcome.status === 'SUCCESS')).toBe(true);
    expect(calls.map((e) => e.action.details.tool)).toEqual(uses);
    // Each lifecycle entry is followed by the MCP call that made it, before any other tool call.
    const madeBy: Record<string, string> = { TASK_START: 'task_start', PLAN_ACCEPTED: 'run_plan', STEP_COMPLETE: 'run_done', TASK_END: 'task_close', TASK_SUBMIT: 'task_submit' };
    entries.forEach((e, i) => {
      const tool = madeBy[e.action.type];
      if (tool === undefined) return;
      const next = entries.slice(i + 1).find((x) => x.action.type === 'TOOL_CALL');
      expect(next?.action.details.tool, `${e.action.type} at line ${i + 1}`).toBe(`${MCP}${tool}`);
    });
    expect(calls.at(-1)).toMatchObject({ phase: 'DONE', task: { id: TASK_ID } });
    // The commands' own entries say who acted and how, without the hook: the agent, through an MCP
    // call, with Claude Code's id of that call (another MCP client leaves the same trace).
    for (const e of entries.filter((x) => madeBy[x.action.type] !== undefined)) {
      expect(e.actor, e.action.type).toMatchObject({ via: 'mcp', role: 'agent' });
      expect(typeof e.actor?.tool_use_id, e.action.type).toBe('string');
    }
  });

  // Found here: while a task ran, its dialects resolved to their pinned copies, which AGENTS.md's plan
  // vocabulary called "bundled", so `protocol compile --check` failed from `task start` on.
  test('AGENTS.md compiled before a task is still current while the task runs', { timeout: 120_000 }, () => {
    const dir = compliantProject(freshHome());
    expect(ratchet(['task', 'start', '--task-id', TASK_ID, '--no-network'], { cwd: dir, timeout: 60_000 }).status).toBe(0);
    const check = ratchet(['protocol', 'compile', '--check'], { cwd: dir, timeout: 60_000 });
    expect(check.stdout + check.stderr).not.toContain('bundled fdc.dialect.json');
    expect(check.status).toBe(0);
  });

  test('the shortcut: `ratchet task submit` from the sandboxed shell is refused, naming the MCP tool; the task stays in POST_MORTEM', { timeout: SESSION_TIMEOUT }, async () => {
    const home = freshHome();
    const dir = compliantProject(home);
    // The user, from their own terminal, brings the task to where a submit would succeed.
    const user = (args: string[]): void => {
      const r = ratchet(args, { cwd: dir, timeout: 60_000 });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    };
    user(['task', 'start', '--task-id', TASK_ID, '--no-network']);
    mkdirSync(join(dir, 'plans'), { recursive: true });
    writeFileSync(join(dir, PLAN), PLAN_TEXT);
    user(['run', 'plan', PLAN]);
    user(['run', 'done']);
    user(['run', 'done']);
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, TARGET), TARGET_TEXT);
    user(['run', 'done']);
    user(['run', 'done']);
    user(['task', 'close', '--task-id', TASK_ID]);
    writeFileSync(join(dir, POSTMORTEM), filledPostMortem(readFileSync(join(dir, POSTMORTEM), 'utf8')));
    user(['lessons', 'extract', POSTMORTEM]);
    user(['lessons', 'apply']);
    expect(sessionFile(dir).state).toBe('POST_MORTEM');
    const before = readFileSync(join(dir, '.ratchet/session.json'));

    const bash = (command: string): Move => ({ label: command, reply: { tools: [{ name: 'Bash', input: { command, description: 'submit the task' } }] } });
    const { server } = await runSession({
      dir,
      home,
      moves: [
        bash(`ratchet task submit --task-id ${TASK_ID}; echo "exit $?"`),
        bash(`RATCHET_ACTOR=user ratchet --json task submit --task-id ${TASK_ID}; echo "exit $?"`),
        bash(`node ${ratchetBin} task submit --task-id ${TASK_ID}; echo "exit $?"`),
        { label: 'stop', reply: { text: 'Submitting from the shell did not work; stopping.' } },
        { label: 'stop again', reply: { text: 'Stopping.' } },
        { label: 'stop once more', reply: { text: 'Stopping.' } },
      ],
    });
    const results = toolResults(server).map((r) => r.text);
    if (process.env.RATCHET_SHOW_ATTEMPTS === '1') results.forEach((t, i) => console.log(i + 1, JSON.stringify(t)));
    expect(results).toHaveLength(3);
    // The CLI itself refuses inside the sandbox and names the MCP tool; claiming to be the user is
    // refused by the hook before it runs.
    for (const i of [0, 2]) {
      expect(results[i]).toContain("read-only inside the agent's sandbox: call the MCP tool `task_submit` (mcp__ratchet__task_submit)");
      expect(results[i]).toMatch(/exit 2$/);
    }
    expect(results[1]).toContain('who is acting is set by the harness');
    for (const text of results) expect(text).not.toContain('DONE');
    expect(readFileSync(join(dir, '.ratchet/session.json')).equals(before)).toBe(true);
    expect(sessionFile(dir).state).toBe('POST_MORTEM');
    expect(log(dir).some((e) => e.action.type === 'TASK_SUBMIT')).toBe(false);

    // Control: the same submit from the user's own terminal goes through, so the refusal above was
    // the boundary, not the self-correction gate.
    user(['task', 'submit', '--task-id', TASK_ID]);
    expect(sessionFile(dir).state).toBe('DONE');
  });
});
