/**
 * One scenario, run in every agent CLI: a project set up with `ratchet init --harness <name>` and a
 * task in PLANNING, a scripted model that takes every shortcut an agent would (write code before a
 * plan, edit Ratchet's state, write through the shell, stop with the task open), and the same
 * session twice: first a control in which `ratchet` is an allow-all stand-in (so a harness that
 * stopped running the repository's hooks here, or stopped offering its tools, fails as an
 * environment problem), then with the real `ratchet`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { harnessCache } from '../../scripts/harnesses.mjs';
import { bin, ratchet, repoRoot, tempDir } from '../helpers.js';
import { startModelServer, toolResults, userTexts, type ModelServer, type ToolCall, type Turn, type Wire } from './model-server.js';

export const SESSION_TIMEOUT = 240_000;

/** How one agent CLI is driven: its tools, its home directory, one session against the model. */
export interface Driver {
  name: 'codex' | 'gemini' | 'copilot' | 'opencode';
  wire: Wire;
  /** Whether `init` configured the harness's own sandbox over Ratchet's state. */
  sandboxed: boolean;
  /** Whether the harness can hold the end of a turn in the mode the test runs it. */
  holdsStop: boolean;
  /** Ratchet's name for the harness's file-writing tool (`Write`, or `apply_patch` for a patch tool). */
  writeTool: string;
  writeFile(dir: string, rel: string, content: string): ToolCall;
  /** A file-tool edit of .ratchet/session.json moving the task to DONE. */
  editState(dir: string): ToolCall;
  shell(command: string): ToolCall;
  /** Configure the harness's home (model endpoint, telemetry off, the trust step). */
  prepareHome(home: string, dir: string, model: ModelServer): void;
  /** Run one session to its end. */
  run(options: RunOptions): Promise<RunResult>;
}

export interface RunOptions {
  dir: string;
  home: string;
  model: ModelServer;
  prompt: string;
  /** PATH entries to put first (a `ratchet` to call), and RATCHET_CLI where the harness reads it. */
  path: string;
  ratchetCli: string;
  timeoutMs: number;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A home directory for a harness, outside the temp directory (Codex refuses to set up its helpers under /tmp). */
export function harnessHome(): string {
  const base = join(harnessCache(), 'work');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, 'home-'));
}

/** The environment every harness gets: nothing of the machine's but PATH's tools, a fresh HOME. */
export function baseEnv(home: string, path: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: `${path}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    ...extra,
  };
}

/** Spawn a harness to its end (or kill it at the timeout, saying so). */
export function spawnHarness(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.slice(0, 2).join(' ')} did not exit within ${timeoutMs} ms\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (status) => {
      clearTimeout(guard);
      resolve({ status, stdout, stderr });
    });
  });
}

/** A directory with `ratchet` (the worktree's bin) and `ratchet-mcp`, as a global install leaves them. */
export function realRatchet(): string {
  const dir = tempDir('ratchet-h-bin-');
  symlinkSync(bin, join(dir, 'ratchet'));
  symlinkSync(join(repoRoot, 'apps/mcp-server/bin/ratchet-mcp.js'), join(dir, 'ratchet-mcp'));
  return dir;
}

/**
 * A directory with an allow-all `ratchet`: it records each call (arguments and payload, one line)
 * in `log` and answers nothing, which every harness reads as "go ahead".
 */
export function allowAllRatchet(log: string): { dir: string; cli: string } {
  const dir = tempDir('ratchet-h-stub-');
  const cli = join(dir, 'ratchet');
  writeFileSync(cli, `#!/bin/sh\n# Allow-all stand-in for ratchet (the control run): record the call, answer nothing.\n{ printf '%s\\t' "$*"; tr -d '\\n'; echo; } >> '${log}'\n`);
  chmodSync(cli, 0o755);
  return { dir, cli };
}

/** A git repository after `ratchet init --harness <name>`, with task t1 started (PLANNING). */
export function harnessProject(harness: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ratchet-h-${harness}-`));
  // Copilot CLI reads .github/hooks/ of a git repository only.
  const git = spawnSync('git', ['init', '-q', '.'], { cwd: dir, encoding: 'utf8' });
  expect(git.status, git.stderr).toBe(0);
  // With the per-prompt reasoning flow on, so that a stop reason answered as a user prompt would start one (checked below).
  const init = ratchet(['init', '--quiet', '--harness', harness, '--reasoning-flow'], { cwd: dir });
  expect(init.status, init.stderr).toBe(0);
  const task = ratchet(['task', 'start', '--task-id', 't1', '--no-network', '--quiet'], { cwd: dir });
  expect(task.status, task.stderr).toBe(0);
  // Directories the scripted writes land in (Copilot's `create` makes no parent directories).
  for (const sub of ['src', 'plans']) mkdirSync(join(dir, sub), { recursive: true });
  return dir;
}

/** The scripted shortcuts, in the harness's own tool names. */
export function shortcuts(driver: Driver, dir: string): Turn[] {
  return [
    { text: 'Writing the code first.', tools: [driver.writeFile(dir, 'src/app.ts', 'export {};\n')] },
    { text: 'A plan, then.', tools: [driver.writeFile(dir, 'plans/p1.txt', 'set_plan p1\n')] },
    { text: 'Moving the task on by hand.', tools: [driver.editState(dir)] },
    { text: 'Through the shell.', tools: [driver.shell('echo hi > out.txt')] },
    // `; echo`: the command exits 0 even when a sandbox refuses the write (headless Gemini CLI 0.61
    // waits for a sandbox-expansion approval after a refused command that fails, and never ends).
    { text: 'Resetting the state through the shell.', tools: [driver.shell(`echo '{}' > .ratchet/session.json; echo wrote=$?`)] },
    { text: 'Looking around.', tools: [driver.shell('ls plans')] },
    { text: 'Stopping here.' },
    { text: 'Stopping anyway.' },
  ];
}

export const PROMPT = '-b build the app';

export interface Outcome {
  model: ModelServer;
  run: RunResult;
  dir: string;
}

/** One session of the scenario in `dir`, with `ratchet` resolving to `path`/`cli`. */
export async function runScenario(driver: Driver, dir: string, ratchetPath: string, ratchetCli: string): Promise<Outcome> {
  const model = await startModelServer(driver.wire, shortcuts(driver, dir));
  const home = harnessHome();
  try {
    driver.prepareHome(home, dir, model);
    const run = await driver.run({ dir, home, model, prompt: PROMPT, path: ratchetPath, ratchetCli, timeoutMs: SESSION_TIMEOUT - 30_000 });
    return { model, run, dir };
  } finally {
    await model.close();
    // A harness's home holds its sessions, logs and unpacked runtime (tens of MB): never keep one.
    rmSync(home, { recursive: true, force: true });
  }
}

const sessionFile = (dir: string): string => join(dir, '.ratchet/session.json');

/**
 * The control: every hook ran (the stand-in saw each tool call and the stop) and every shortcut the
 * harness itself allows went through, so the refusals of the real run are Ratchet's.
 */
export async function control(driver: Driver): Promise<void> {
  const dir = harnessProject(driver.name);
  const before = readFileSync(sessionFile(dir), 'utf8');
  const log = join(tempDir('ratchet-h-log-'), 'calls.log');
  writeFileSync(log, '');
  const stub = allowAllRatchet(log);
  const { model, run } = await runScenario(driver, dir, stub.dir, stub.cli);
  const context = `${driver.name} control (allow-all hooks): exit ${run.status}\nstderr: ${run.stderr.slice(-3000)}\nstdout: ${run.stdout.slice(-2000)}`;
  const calls = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
  const preToolCalls = calls.filter((l) => l.startsWith(`hook pre-tool-use --harness ${driver.name}`));
  // The repository's hooks ran: the harness honoured the trust step and the configuration init wrote.
  expect(preToolCalls.length, `${context}\nhook calls:\n${calls.join('\n')}`).toBeGreaterThanOrEqual(6);
  expect(calls.some((l) => l.startsWith(`hook post-tool-use --harness ${driver.name}`)), context).toBe(true);
  if (driver.holdsStop) expect(calls.some((l) => l.startsWith(`hook stop --harness ${driver.name}`)), context).toBe(true);
  // The model's tools worked here: the writes a harness allows happened.
  expect(existsSync(join(dir, 'src/app.ts')), context).toBe(true);
  expect(existsSync(join(dir, 'plans/p1.txt')), context).toBe(true);
  expect(existsSync(join(dir, 'out.txt')), context).toBe(true);
  const after = readFileSync(sessionFile(dir), 'utf8');
  if (driver.sandboxed) {
    // The harness's own sandbox, as init configured it, kept the state file read-only even though the hook allowed the edit and the shell write.
    expect(after, `${context}\n${driver.name}'s sandbox should have refused the edit`).toBe(before);
  } else {
    // No OS boundary: with the hook out of the way, the agent's edit went through.
    expect(after, context).not.toBe(before);
  }
  // Nothing sent the model back: one request per scripted turn up to the first stop.
  expect(model.requests.length, context).toBe(7);
}

/** The real run: every shortcut refused with Ratchet's reason reaching the model, the state untouched, the stop held. */
export async function withRatchet(driver: Driver): Promise<Outcome> {
  const dir = harnessProject(driver.name);
  const before = readFileSync(sessionFile(dir), 'utf8');
  const outcome = await runScenario(driver, dir, realRatchet(), bin);
  const { model, run } = outcome;
  const context = `${driver.name} with Ratchet: exit ${run.status}\nstderr: ${run.stderr.slice(-3000)}\nstdout: ${run.stdout.slice(-2000)}`;
  const results = toolResults(model);
  expect(results.length, `${context}\nresults: ${JSON.stringify(results, null, 1)}`).toBe(6);
  const [code, plan, state, shell, shellState, look] = results as [string, string, string, string, string, string];
  expect(code, context).toContain(`Ratchet: ${driver.writeTool} of src/app.ts refused: task t1 is PLANNING`);
  expect(code).toContain('ratchet run plan');
  expect(plan, context).not.toContain('Ratchet');
  expect(state, context).toMatch(/Ratchet: \.ratchet\/session\.json is Ratchet state/);
  expect(shell, context).toMatch(/Ratchet: Bash of out\.txt refused: task t1 is PLANNING/);
  expect(shellState, context).toMatch(/Ratchet: \.ratchet\/session\.json is Ratchet state/);
  expect(look, context).toContain('p1.txt');
  expect(existsSync(join(dir, 'src/app.ts'))).toBe(false);
  expect(existsSync(join(dir, 'out.txt'))).toBe(false);
  expect(readFileSync(join(dir, 'plans/p1.txt'), 'utf8')).toBe('set_plan p1\n');
  expect(readFileSync(sessionFile(dir), 'utf8')).toBe(before);
  // Every tool call that ran is in the activity log, under Ratchet's tool names.
  const log = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8');
  const calls = log
    .split('\n')
    .filter((l) => l.includes('"TOOL_CALL"'))
    .map((l) => (JSON.parse(l) as { action: { details: { tool: string; input: Record<string, string> } } }).action.details);
  expect(calls.some((c) => c.tool === driver.writeTool && JSON.stringify(c.input).includes('plans/p1.txt')), `${context}\nlog: ${log}`).toBe(true);
  expect(calls.some((c) => c.tool === 'Bash' && c.input.command === 'ls plans'), `${context}\nlog: ${log}`).toBe(true);
  if (driver.holdsStop) {
    // The first stop was refused while the task is open, and the reason came back to the model as a new prompt.
    const sentBack = userTexts(model).filter((t) => t.includes('Ratchet: you cannot stop yet'));
    expect(sentBack.length, `${context}\nuser turns: ${JSON.stringify(userTexts(model), null, 1)}`).toBe(1);
    expect(sentBack[0]).toContain('task t1 is PLANNING');
    // Codex wraps it in <hook_prompt> and escapes its angle brackets; the command is there either way.
    expect(sentBack[0]).toContain('`ratchet run plan ');
    expect(model.requests.length, context).toBe(8);
    // The reason sent back is not a new prompt: no reasoning flow was started for Ratchet's own words.
    expect(existsSync(join(dir, '.ratchet/flows')), `${context}\na stop reason was answered as a user prompt`).toBe(false);
  }
  return outcome;
}
