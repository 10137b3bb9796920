/** Spawning and talking to test/workers/worker.ts children. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { WorkerJob } from '../workers/worker.js';

export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Every stdout line so far. */
  readonly lines: string[];
  readonly stderr: () => string;
  /** Resolves with the first line (past or future) matching `test`; rejects if the child exits first. */
  waitFor(test: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Write one line to the child's stdin (the "go" signal). */
  send(line: string): void;
  /** Resolves once the child has exited and its stdout is drained. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWorker(job: WorkerJob): Child {
  const script = join(inject('childDir'), 'test', 'workers', 'worker.js');
  const child = spawn(process.execPath, [script, JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  let buffered = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      done = true;
      for (const listener of listeners) listener();
      resolve({ code, signal });
    });
  });
  if (child.pid === undefined) throw new Error('spawn failed');
  return {
    process: child,
    pid: child.pid,
    lines,
    stderr: () => stderr,
    exited,
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    waitFor(test, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out waiting for a line; got ${JSON.stringify(lines.slice(-5))}; stderr ${stderr}`)), timeoutMs);
        const check = (): void => {
          const line = lines.find(test);
          if (line !== undefined) finish(undefined, line);
          else if (done) finish(new Error(`child exited before the expected line; last lines ${JSON.stringify(lines.slice(-5))}; stderr ${stderr}`));
        };
        const finish = (err: Error | undefined, line?: string): void => {
          clearTimeout(timer);
          listeners.delete(check);
          if (err !== undefined) reject(err);
          else resolve(line ?? '');
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** End a child: SIGKILL, then wait until it is reaped (a zombie still answers kill(pid, 0)). */
export async function killChild(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

let dead: number | undefined;

/** A pid that belonged to a process which has exited (for planting dead holders); one per test file. */
export function deadPid(): number {
  if (dead === undefined) {
    const r = spawnSync(process.execPath, ['-e', '0']);
    if (r.pid === undefined) throw new Error('spawn failed');
    dead = r.pid;
  }
  return dead;
}

export function tempDir(prefix = 'ratchet-store-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
