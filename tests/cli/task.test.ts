import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { acquireLock } from '../../packages/store/src/index.js';
import { blackHole } from '../../scripts/dev/black-hole.js';
import { bin, ratchet, selfCorrect, tempDir } from '../helpers.js';

/** A project after `ratchet init` with a 12-step plan whose middle calls a registered sub-plan. */
function project(): string {
  const dir = tempDir('ratchet-task-');
  expect(ratchet(['init', '--quiet'], { cwd: dir }).status).toBe(0);
  mkdirSync(join(dir, 'plans'));
  const reads = Array.from({ length: 8 }, (_, i) => `list_files step-${i}`).join('\n');
  writeFileSync(join(dir, 'plans/main.txt'), `set_plan main\nplan_step_complete go\n${reads}\ncall_plan sub\nrun_in_bash_session close\n`);
  writeFileSync(join(dir, 'plans/sub.txt'), 'set_plan sub\nplan_step_complete go\nrun_in_bash_session close\n');
  expect(ratchet(['plan', 'registry', 'register', 'sub', 'plans/sub.txt'], { cwd: dir }).status).toBe(0);
  return dir;
}

function spawnRatchet(args: string[], cwd: string): Promise<number | null> {
  return spawnOutput(args, cwd).then((r) => r.code);
}

function spawnOutput(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const session = (dir: string): { state: string; stack: { current: number; planPath: string }[]; history: { trigger: string }[] } =>
  JSON.parse(readFileSync(join(dir, '.ratchet/session.json'), 'utf8')) as never;

describe('the task cycle through the built binary (separate processes)', () => {
  test('every step is its own process: the session carries the task to DONE', () => {
    const dir = project();
    expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['run', 'plan', 'plans/main.txt'], { cwd: dir }).status).toBe(0);
    let steps = 0;
    for (; steps < 30; steps++) {
      const next = JSON.parse(ratchet(['--json', 'run', 'next'], { cwd: dir }).stdout) as { state: string; next: { step?: { chain: string[] } } };
      if (next.state !== 'EXECUTING') break;
      expect(ratchet(['run', 'done'], { cwd: dir }).status).toBe(0);
    }
    expect(steps).toBe(2 + 8 + 3 + 1);
    expect(ratchet(['task', 'close', '--task-id', 'T-1'], { cwd: dir }).status).toBe(0);
    selfCorrect(dir, 'T-1');
    const submit = ratchet(['task', 'submit', '--task-id', 'T-1'], { cwd: dir });
    expect(submit.status).toBe(0);
    expect(session(dir).state).toBe('DONE');
  });

  test('8 concurrent `run done` processes: 8 steps advanced, 8 history entries, 8 log lines', async () => {
    const dir = project();
    expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['run', 'plan', 'plans/main.txt'], { cwd: dir }).status).toBe(0);
    const codes = await Promise.all(Array.from({ length: 8 }, () => spawnRatchet(['run', 'done'], dir)));
    expect(codes).toEqual(Array<number>(8).fill(0));
    const s = session(dir);
    expect(s.stack.map((f) => [f.planPath, f.current])).toEqual([['plans/main.txt', 8]]);
    expect(s.history.filter((h) => h.trigger === 'step_complete')).toHaveLength(8);
    const log = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8').trimEnd().split('\n');
    expect(log.filter((l) => l.includes('"STEP_COMPLETE"'))).toHaveLength(8);
  }, 120_000);

  test('8 concurrent `run done`: each reply and each log entry names a different step, the one it advanced', async () => {
    const dir = project();
    expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['run', 'plan', 'plans/main.txt'], { cwd: dir }).status).toBe(0);
    const runs = await Promise.all(Array.from({ length: 8 }, () => spawnOutput(['--json', 'run', 'done'], dir)));
    expect(runs.map((r) => r.code)).toEqual(Array<number>(8).fill(0));
    const replied = runs.map((r) => (JSON.parse(r.stdout) as { done: { index: number } }).done.index).sort((a, b) => a - b);
    expect(replied).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const logged = readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: { type: string; details: { line?: string } }; task: { plan_step: number | null } })
      .filter((e) => e.action.type === 'STEP_COMPLETE');
    expect(logged.map((e) => e.task.plan_step).sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(logged.map((e) => e.action.details.line)).size).toBe(8);
  }, 120_000);

  test('`run done` racing the end of the plan: the late callers exit 1 with "no step pending", never 70', async () => {
    const dir = project();
    expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
    expect(ratchet(['run', 'plan', 'plans/sub.txt'], { cwd: dir }).status).toBe(0); // 3 steps
    const runs = await Promise.all(Array.from({ length: 6 }, () => spawnOutput(['run', 'done'], dir)));
    const codes = runs.map((r) => r.code).sort();
    expect(codes).toEqual([0, 0, 0, 1, 1, 1]);
    for (const r of runs.filter((x) => x.code === 1)) expect(r.stderr).toContain('no step pending');
    expect(runs.some((r) => r.stderr.includes('IllegalMoveError'))).toBe(false);
    expect(session(dir).state).toBe('AWAITING_ANALYSIS');
  }, 120_000);

  // The network probe connects to a loopback port that never answers (nothing leaves the machine).
  test.runIf(process.platform === 'linux')('task start against an address that never answers: the probe gives up at its timeout and the process exits', async () => {
    const dir = project();
    const hole = await blackHole();
    try {
      const started = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [bin, 'task', 'start', '--task-id', 'T-1', '--network-target', `${hole.host}:${hole.port}`, '--network-timeout', '300'], { cwd: dir });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += String(d)));
        // Far above the 300 ms probe: only a probe that hangs (or keeps the process alive) gets here.
        const guard = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error('ratchet task start did not exit: the network probe hung'));
        }, 30_000);
        child.on('exit', (code) => {
          clearTimeout(guard);
          resolve({ code, out });
        });
      });
      expect(started.code).toBe(0);
      expect(started.out).toContain(`L3 network      unreachable: 127.0.0.1:${hole.port} no connection within 300 ms`);
      const report = JSON.parse(readFileSync(join(dir, '.ratchet/orientation.json'), 'utf8')) as { level3: { network: Record<string, unknown> } };
      expect(report.level3.network).toMatchObject({ skipped: false, ok: false, target: `127.0.0.1:${hole.port}`, error: 'no connection within 300 ms' });
      expect(session(dir).state).toBe('PLANNING');
    } finally {
      hole.close();
    }
  });

  describe('task close is retryable: a failure at any of its steps, then a retry, gives one post-mortem and one TASK_END', () => {
    /** A project whose plan has run to the end: the next command is `task close`. */
    function readyToClose(): string {
      const dir = project();
      expect(ratchet(['task', 'start', '--task-id', 'T-1', '--no-network'], { cwd: dir }).status).toBe(0);
      expect(ratchet(['run', 'plan', 'plans/sub.txt'], { cwd: dir }).status).toBe(0);
      for (let i = 0; i < 3; i++) expect(ratchet(['run', 'done'], { cwd: dir }).status).toBe(0);
      expect(session(dir).state).toBe('AWAITING_ANALYSIS');
      return dir;
    }
    const taskEnds = (dir: string): number => readFileSync(join(dir, 'logs/activity.log.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"TASK_END"')).length;
    const close = (dir: string): ReturnType<typeof ratchet> => ratchet(['task', 'close', '--task-id', 'T-1'], { cwd: dir });

    test('the session update fails (its lock is unusable): nothing is written, and the retry closes the task', () => {
      const dir = readyToClose();
      // A directory where the lock file goes: the update cannot take the lock (root or not).
      mkdirSync(join(dir, '.ratchet/session.json.lock'));
      const failed = close(dir);
      expect(failed.status).toBe(2);
      expect(failed.stderr).toContain('session.json.lock is not valid lock metadata');
      expect(existsSync(join(dir, 'postmortems/T-1.md'))).toBe(false);
      expect(session(dir).state).toBe('AWAITING_ANALYSIS');
      rmdirSync(join(dir, '.ratchet/session.json.lock'));
      const retried = close(dir);
      expect(retried.stderr).toBe('');
      expect(retried.status).toBe(0);
      expect(retried.stdout).toContain('Task T-1 closed (SUCCESS)');
      expect(session(dir).state).toBe('POST_MORTEM');
      expect(taskEnds(dir)).toBe(1);
    });

    test('writing the post-mortem fails: the task is closed, the error says to run close again, which writes the same template and logs TASK_END once', () => {
      const dir = readyToClose();
      writeFileSync(join(dir, 'postmortems'), 'a file where the directory goes');
      const failed = close(dir);
      expect(failed.status).toBe(2);
      expect(failed.stderr).toContain('Task T-1 is closed (POST_MORTEM); fix this, then run `ratchet task close --task-id T-1` again to finish');
      expect(session(dir).state).toBe('POST_MORTEM');
      expect(existsSync(join(dir, 'logs/activity.log.jsonl')) ? taskEnds(dir) : 0).toBe(0);
      rmSync(join(dir, 'postmortems'));
      const retried = ratchet(['--json', 'task', 'close', '--task-id', 'T-1'], { cwd: dir });
      expect(retried.status).toBe(0);
      expect(JSON.parse(retried.stdout)).toMatchObject({ ok: true, state: 'POST_MORTEM', alreadyClosed: true, repaired: ['wrote the missing post-mortem postmortems/T-1.md', 'logged the missing TASK_END'] });
      expect(taskEnds(dir)).toBe(1);
      // The template written on the retry is the one the session recorded: submit still refuses it untouched.
      const submit = ratchet(['task', 'submit', '--task-id', 'T-1'], { cwd: dir });
      expect(submit.status).toBe(1);
      expect(submit.stderr).toContain('postmortems/T-1.md: section "1. Summary" is empty');
    });

    test('six closes at once, in separate processes, racing for the activity log: one post-mortem, one TASK_END', async () => {
      const dir = readyToClose();
      // Hold the activity log's lock, so every close gets past the session update (the first closing,
      // the others seeing it closed) and then waits to log: released together, they race.
      const lock = await acquireLock(join(dir, 'logs/activity.log.jsonl'), { timeoutMs: 0, createParentDirs: true });
      const closes = Array.from({ length: 6 }, () => spawnRatchet(['task', 'close', '--task-id', 'T-1'], dir));
      for (let i = 0; i < 200 && !existsSync(join(dir, 'postmortems/T-1.md')); i++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 1500));
      await lock.release();
      expect(await Promise.all(closes)).toEqual(Array<number>(6).fill(0));
      expect(session(dir).state).toBe('POST_MORTEM');
      expect(taskEnds(dir)).toBe(1);
      expect(readFileSync(join(dir, 'postmortems/T-1.md'), 'utf8')).toContain('Corrective Actions');
    });

    test('logging TASK_END fails: the retry logs it once and keeps the post-mortem the user already edited', () => {
      const dir = readyToClose();
      mkdirSync(join(dir, 'logs/activity.log.jsonl.lock'));
      const failed = close(dir);
      expect(failed.status).toBe(2);
      expect(failed.stderr).toContain('again to finish');
      rmdirSync(join(dir, 'logs/activity.log.jsonl.lock'));
      const pm = join(dir, 'postmortems/T-1.md');
      writeFileSync(pm, `${readFileSync(pm, 'utf8')}\nFilled in.\n`);
      const retried = close(dir);
      expect(retried.status).toBe(0);
      expect(retried.stdout).toContain('Task T-1 was already closed (SUCCESS); logged the missing TASK_END.');
      expect(readFileSync(pm, 'utf8')).toContain('Filled in.');
      const again = close(dir);
      expect(again.stdout).toContain('nothing left to do');
      expect(taskEnds(dir)).toBe(1);
      selfCorrect(dir, 'T-1');
      expect(ratchet(['task', 'submit', '--task-id', 'T-1'], { cwd: dir }).status).toBe(0);
    });
  });

  test('help names every step of the cycle', () => {
    const help = ratchet(['task', '--help']).stdout;
    for (const cmd of ['ratchet task start', 'ratchet run plan', 'ratchet run next', 'ratchet task close', 'ratchet task submit']) expect(help).toContain(cmd);
  });
});
