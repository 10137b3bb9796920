import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const bin = join(repoRoot, 'apps/cli/bin/ratchet.js');
export const protocols = join(repoRoot, 'protocols');
export const examples = join(repoRoot, 'examples');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `ratchet` as a real process without waiting for it (for concurrent runs); resolves when it exits. */
export function ratchetAsync(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult & { ms: number }> {
  const start = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (status) => done({ status, stdout, stderr, ms: Date.now() - start }));
  });
}

/** Run the built `ratchet` binary as a user would: a real process, real exit code. */
export function ratchet(args: string[], options: SpawnSyncOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', ...options, env: { ...process.env, NO_COLOR: '1', ...options.env } });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/**
 * A lease length (ms) that outlasts `calls` CLI processes on this machine as loaded as it is now:
 * four times what one `ratchet --version` takes, per call, and at least `floorMs`. Tests that need a
 * lease to hold across CLI calls take it instead of a fixed length, which a busy machine outruns
 * (8 s leases lapsed across three calls at a load of 40 on two cores).
 */
export function leaseOutlasting(calls: number, floorMs = 6000): number {
  const started = performance.now();
  ratchet(['--version']);
  const one = performance.now() - started;
  return Math.ceil(Math.max(floorMs, calls * 4 * one) / 1000) * 1000;
}

/**
 * Start the built `ratchet` in the background (concurrency and crash tests): the child, and a promise
 * of its exit code and output. `detached` makes it a process-group leader, so a test can kill it and
 * every agent it started at once (`process.kill(-child.pid, 'SIGKILL')`).
 */
export function ratchetInBackground(args: string[], options: { cwd: string; env?: Record<string, string>; detached?: boolean }): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, detached: options.detached === true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  return { child, done };
}

export function tempDir(prefix = 'ratchet-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The post-mortem template `task close` wrote, with every section written and one (manual) lesson. */
export function fillPostMortem(template: string, lesson = '**Lesson:** Nothing surprised us.\n**Action:** tell the team the plan held'): string {
  return template
    .replace('<!-- What was the task?', 'The task was delivered.\n<!--')
    .replace('<!-- Facts first', 'It went to plan.\n<!--')
    .replace('<!--\nWrite each lesson', `${lesson}\n\n<!--\nWrite each lesson`)
    .replace('<!-- Open questions', 'None.\n<!--');
}

/** Self-correction after `task close`, as an agent does it: fill in the post-mortem, extract its lessons. */
export function selfCorrect(dir: string, taskId: string): void {
  const pm = join(dir, `postmortems/${taskId}.md`);
  writeFileSync(pm, fillPostMortem(readFileSync(pm, 'utf8')));
  const extracted = ratchet(['lessons', 'extract', `postmortems/${taskId}.md`], { cwd: dir });
  if (extracted.status !== 0) throw new Error(`lessons extract failed: ${extracted.stderr}`);
}
