import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bin, ratchet, tempDir } from '../helpers.js';

interface Claimed {
  seq: number;
  runner: string;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
}

/** One `ratchet --json campaign ready --claim RUNNER` process; `kill` may SIGKILL it mid-flight. */
function claimOnce(dir: string, runner: string, killAfterMs?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '--json', 'campaign', 'ready', '--claim', runner, '--cwd', dir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => void (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr += c));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code !== 0 && signal === null) reject(new Error(`ready --claim ${runner} exited ${code}: ${stderr}`));
      else resolve({ code, signal, stdout });
    });
  });
}

/** A builder: claims until nothing is ready, returning what it was told it got. */
async function builder(dir: string, runner: string, kill?: () => number | undefined): Promise<{ claimed: number[]; killed: number }> {
  const claimed: number[] = [];
  let killed = 0;
  for (;;) {
    const r = await claimOnce(dir, runner, kill?.());
    if (r.signal !== null) {
      killed++;
      continue;
    }
    const { claimed: task } = JSON.parse(r.stdout) as { claimed: Claimed | null };
    if (task === null) return { claimed, killed };
    expect(task.runner).toBe(runner);
    claimed.push(task.seq);
  }
}

function campaignWith(tasks: number): string {
  const dir = tempDir('ratchet-claims-');
  expect(ratchet(['campaign', 'create', 'parallel builders', '--cwd', dir]).status).toBe(0);
  const plan = { objective: 'parallel builders', tasks: Array.from({ length: tasks }, (_, i) => ({ seq: String(i + 1).padStart(3, '0'), slug: `t${i + 1}`, delta: [`src/f${i}.ts`], verify: 'true' })) };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  expect(ratchet(['campaign', 'add-tasks', 'plan.json', '--cwd', dir]).status).toBe(0);
  return dir;
}

const fileTasks = (dir: string): { seq: number; status: string; runner?: string }[] => (JSON.parse(readFileSync(join(dir, '.ratchet', 'campaign.json'), 'utf8')) as { tasks: { seq: number; status: string; runner?: string }[] }).tasks;

describe('ratchet campaign ready --claim across real processes', () => {
  test('8 builder processes: every task claimed exactly once, by the builder the file names', async () => {
    const dir = campaignWith(24);
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => builder(dir, `builder-${w}`)));
    const all = results.flatMap((r) => r.claimed).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const tasks = fileTasks(dir);
    expect(tasks.every((t) => t.status === 'in_progress')).toBe(true);
    results.forEach((r, w) => {
      for (const seq of r.claimed) expect(tasks[seq - 1]!.runner).toBe(`builder-${w}`);
    });
  }, 120_000);

  test('builders killed with SIGKILL mid-claim: the file stays valid, no task is handed out twice, the rest are still claimed', async () => {
    const dir = campaignWith(24);
    let n = 0;
    // Every third claim is killed somewhere between start-up and its write.
    const kill = (): number | undefined => (n++ % 3 === 0 ? 40 + ((n * 37) % 260) : undefined);
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => builder(dir, `builder-${w}`, kill)));
    expect(results.reduce((s, r) => s + r.killed, 0)).toBeGreaterThan(0);
    const reported = results.flatMap((r) => r.claimed);
    expect(new Set(reported).size).toBe(reported.length);
    // The file parses and validates; every claim a builder was told about is recorded for it.
    const status = ratchet(['--json', 'campaign', 'status', '--cwd', dir]);
    expect(status.status, status.stderr).toBe(0);
    const tasks = fileTasks(dir);
    results.forEach((r, w) => {
      for (const seq of r.claimed) expect(tasks[seq - 1]).toMatchObject({ status: 'in_progress', runner: `builder-${w}` });
    });
    // A killed claim either never happened or took a task nobody else was told about; nothing is left pending.
    expect(tasks.filter((t) => t.status === 'pending')).toEqual([]);
    expect(tasks.filter((t) => t.status === 'in_progress')).toHaveLength(24);
  }, 180_000);
});

describe('ratchet campaign add-tasks on standard input', () => {
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

  // `script` gives the command a real terminal as stdin: before, add-tasks sat there waiting forever.
  test.skipIf(!hasScript)('with no file on an interactive terminal it refuses at once (exit 2) and says what to do', () => {
    const dir = tempDir('ratchet-stdin-');
    expect(ratchet(['campaign', 'create', 'x', '--cwd', dir]).status).toBe(0);
    const r = spawnSync('script', ['-qec', `"${process.execPath}" "${bin}" campaign add-tasks --cwd "${dir}"; echo "rc=$?"`, '/dev/null'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    expect(r.error).toBeUndefined(); // not killed by the timeout
    expect(r.stdout).toContain('no plan given: pass a plan file (ratchet campaign add-tasks plan.json) or pipe one');
    expect(r.stdout).toMatch(/rc=2\s*$/);
  });

  test('an endless stream is cut off at the size limit (exit 2) instead of being read to the end', async () => {
    const dir = tempDir('ratchet-stdin-');
    expect(ratchet(['campaign', 'create', 'x', '--cwd', dir]).status).toBe(0);
    const before = readFileSync(join(dir, '.ratchet', 'campaign.json'), 'utf8');
    const child = spawn(process.execPath, [bin, 'campaign', 'add-tasks', '--cwd', dir], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr += c));
    const chunk = Buffer.alloc(1 << 20, 0x20);
    let written = 0;
    let open = true;
    const pump = (): void => {
      while (open && child.stdin.write(chunk)) written += chunk.length;
    };
    child.stdin.on('drain', pump).on('error', () => void (open = false));
    pump();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    open = false;
    expect(code).toBe(2);
    expect(stderr).toContain('<stdin>: the plan on standard input is over 128 MiB, the most it may be; reading stopped there');
    // The producer never ended its stream: ratchet stopped on its own, having read little past the limit.
    expect(written).toBeLessThan(256 * 1024 * 1024);
    expect(readFileSync(join(dir, '.ratchet', 'campaign.json'), 'utf8')).toBe(before);
  }, 60_000);
});
