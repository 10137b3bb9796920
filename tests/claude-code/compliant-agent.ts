/**
 * A compliant agent in the real Claude Code, carrying one small task from `task_start` to
 * `task_submit` through Ratchet's MCP tools alone (issues 28 and 32): the project set up by
 * `ratchet init --claude` (sandbox on, Ratchet's files read-only to the shell, hooks in
 * `.claude/settings.json`, Ratchet's server in `.mcp.json`, so its tools are `mcp__ratchet__*`), every
 * with the default `core` tools (RATCHET_MCP_TOOLS=core: they carry a whole task), and a scripted model that does what the protocols ask and
 * nothing more. Shared by the session test (agent-lifecycle.test.ts) and the cost count
 * (tests/bench/agent-cost.mjs, which loads this file through tsx), so both measure the same session.
 * No vitest import here: the benchmark runs it outside the test runner.
 */
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ratchet, repoRoot, tempDir } from '../helpers.js';
import { claudeSession, freshHome, ratchetBin, type ClaudeRun } from './claude.js';
import { startModelServer, type MessagesRequest, type ModelServer, type Reply } from './model-server.js';

/** `.mcp.json` names the server `ratchet`: Claude Code offers its tools as `mcp__ratchet__<tool>`. */
export const MCP = 'mcp__ratchet__';
export const TASK_ID = 'greet';
export const PLAN = 'plans/greet.txt';
export const TARGET = 'src/greet.ts';
export const POSTMORTEM = `postmortems/${TASK_ID}.md`;
/** Four steps: the FDC FSM wants set_plan and a step marker before a write, and the close last. */
export const PLAN_TEXT = `set_plan greet\nplan_step_complete go\ncreate_file_with_block ${TARGET}\nrun_in_bash_session close\n`;
export const TARGET_TEXT = 'export const greet = (name: string): string => `Hello, ${name}!`;\n';
/** A lesson `lessons apply` carries out (a protocol change), so the whole self-correction loop runs. */
export const LESSON = "**Lesson:** Block-grammar plans were hard to review before they ran.\n**Action:** add tool 'ratchet plan fmt' to protocol 'fdc'";

export const SESSION_TIMEOUT = 300_000;

/**
 * The user's prompt. `-b` is the user's documented way to skip the nine-step reasoning flow the
 * UserPromptSubmit hook otherwise starts on every prompt (the default today): this session measures
 * one task's lifecycle, not the reasoning protocol (whose per-prompt cost the benchmark counts apart).
 */
export const PROMPT = `-b Add ${TARGET}, a greeting helper, as task ${TASK_ID}, following the project's Ratchet protocols.`;

function must(r: { status: number | null; stdout: string; stderr: string }, what: string): void {
  if (r.status !== 0) throw new Error(`${what}: exit ${r.status}\n${r.stderr}\n${r.stdout}`);
}

/** A directory with `ratchet` and `ratchet-mcp` as `npm install -g` leaves them: the hooks and `.mcp.json` call them by name. */
export function binDir(): string {
  const dir = tempDir('ratchet-cc-bin-');
  symlinkSync(ratchetBin, join(dir, 'ratchet'));
  symlinkSync(join(repoRoot, 'apps/mcp-server/bin/ratchet-mcp.js'), join(dir, 'ratchet-mcp'));
  return dir;
}

/**
 * A fresh project as the README sets one up, from the user's terminal: `ratchet init`,
 * `ratchet protocol compile` (AGENTS.md), `ratchet init --claude` without the plugin (so the hooks go
 * into `.claude/settings.json` and the server into `.mcp.json`). No task is started: the agent does.
 */
export function compliantProject(home: string): string {
  const dir = tempDir('ratchet-cc-life-');
  must(ratchet(['init', '--quiet'], { cwd: dir, timeout: 60_000 }), 'ratchet init');
  must(ratchet(['protocol', 'compile', '--quiet'], { cwd: dir, timeout: 60_000 }), 'ratchet protocol compile');
  must(ratchet(['--cwd', dir, 'init', '--claude'], { env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }, timeout: 60_000 }), 'ratchet init --claude');
  return dir;
}

/** The post-mortem template `task close` wrote, every section written in the agent's words, with one lesson. */
export function filledPostMortem(template: string): string {
  return template
    .replace('<!-- What was the task?', 'Added src/greet.ts, a greeting helper, through a four-step plan; the task ended in success.\n<!-- What was the task?')
    .replace('<!-- Facts first', 'The plan was linted before it ran and every step was reported as it finished; the one file was created as planned.\n<!-- Facts first')
    .replace('<!--\nWrite each lesson', `${LESSON}\n\n<!--\nWrite each lesson`)
    .replace('<!-- Open questions', 'No open questions; nobody else needs telling.\n<!-- Open questions');
}

const mcp = (tool: string, input: Record<string, unknown> = {}): Reply => ({ tools: [{ name: `${MCP}${tool}`, input }] });

/** One scripted model turn: a reply, or one built when its request arrives (it may read what the agent was shown). */
export type Move = { label: string; reply: Reply | ((dir: string) => Reply) };

/**
 * The compliant session, move by move. Each reply is what the previous tool result asked for; the
 * results are asserted by the test, so a Ratchet that answered differently fails there.
 */
export function compliantMoves(dir: string): Move[] {
  const abs = (p: string): string => join(dir, p);
  return [
    // Orientation: where are we? (no task yet: START)
    { label: 'run_status', reply: mcp('run_status') },
    { label: 'task_start', reply: mcp('task_start', { task_id: TASK_ID, network: false }) },
    // PLANNING: what now? (write a plan and submit it)
    { label: 'run_next', reply: mcp('run_next') },
    { label: 'Write plan', reply: { tools: [{ name: 'Write', input: { file_path: abs(PLAN), content: PLAN_TEXT } }] } },
    { label: 'run_plan', reply: mcp('run_plan', { plan: PLAN }) },
    // Each step: run_done's result names the next step, so no run_next in between.
    { label: 'run_done set_plan', reply: mcp('run_done') },
    { label: 'run_done plan_step_complete', reply: mcp('run_done') },
    { label: 'Write target', reply: { tools: [{ name: 'Write', input: { file_path: abs(TARGET), content: TARGET_TEXT } }] } },
    { label: 'run_done create_file_with_block', reply: mcp('run_done') },
    { label: 'run_done close', reply: mcp('run_done') },
    // AWAITING_ANALYSIS: close, then self-correction.
    { label: 'task_close', reply: mcp('task_close', { task_id: TASK_ID }) },
    // Claude Code's Write refuses to overwrite a file the agent has not read.
    { label: 'Read post-mortem', reply: { tools: [{ name: 'Read', input: { file_path: abs(POSTMORTEM) } }] } },
    { label: 'Write post-mortem', reply: (d) => ({ tools: [{ name: 'Write', input: { file_path: join(d, POSTMORTEM), content: filledPostMortem(readFileSync(join(d, POSTMORTEM), 'utf8')) } }] }) },
    { label: 'lessons_extract', reply: mcp('lessons_extract', { postmortem: POSTMORTEM }) },
    { label: 'lessons_apply', reply: mcp('lessons_apply') },
    { label: 'task_submit', reply: mcp('task_submit', { task_id: TASK_ID }) },
    { label: 'final text', reply: { text: `Task ${TASK_ID} is submitted: src/greet.ts written, post-mortem filled in, its lesson applied.` } },
  ];
}

export interface CompliantRun {
  dir: string;
  home: string;
  run: ClaudeRun;
  server: ModelServer;
  /** The move each agent-loop request was answered with (`extra` past the script's end). */
  answered: string[];
}

/**
 * Run `moves` (default: the compliant session) in the real Claude Code in `dir`, with the sandbox
 * on. `env` is added to Claude Code's environment (and so to the MCP server's and the hooks').
 */
export async function runSession(options: { dir: string; home: string; moves: Move[]; env?: Record<string, string>; prompt?: string }): Promise<CompliantRun> {
  const answered: string[] = [];
  const server = await startModelServer((_request: MessagesRequest, index: number) => {
    const move = options.moves[index];
    if (move === undefined) {
      answered.push('extra');
      return { text: 'Done.' };
    }
    answered.push(move.label);
    return typeof move.reply === 'function' ? move.reply(options.dir) : move.reply;
  });
  try {
    const run = await claudeSession({
      cwd: options.dir,
      home: options.home,
      baseUrl: server.url,
      prompt: options.prompt ?? PROMPT,
      env: { PATH: `${binDir()}:${process.env.PATH ?? ''}`, RATCHET_CLI: ratchetBin, RATCHET_MCP_TOOLS: 'core', ...options.env },
      timeoutMs: SESSION_TIMEOUT - 20_000,
    });
    if (run.status !== 0) throw new Error(`claude exited ${run.status}\n${run.stderr}\n${run.stdout}`);
    return { dir: options.dir, home: options.home, run, server, answered };
  } finally {
    await server.close();
  }
}

/** The compliant session in a fresh project and HOME. */
export async function compliantSession(env: Record<string, string> = {}): Promise<CompliantRun> {
  const home = freshHome();
  const dir = compliantProject(home);
  return runSession({ dir, home, moves: compliantMoves(dir), env });
}
