/**
 * Re-running a workspace's verify command, for `observe --verify`. The command comes from a file,
 * so it only ever runs when a human passed that flag (DESIGN.md, principle 5). It runs through the
 * shell in its own process group, with a timeout that kills the whole group (a hung test runner and
 * its children), and output capped so a chatty command cannot fill memory.
 */
import { spawn } from 'node:child_process';

export interface VerifyOutcome {
  /** Exit code, or null when killed by a signal (including the timeout). */
  exitCode: number | null;
  timedOut: boolean;
  /** Combined stdout and stderr, at most 64 KiB (the tail is kept). */
  output: string;
}

export interface VerifyRunOptions {
  cwd: string;
  timeoutMs: number;
  env?: Record<string, string | undefined>;
}

/** Runs a verify command; the injectable seam observe() uses (tests pass a fake). */
export type VerifyRunner = (command: string, options: VerifyRunOptions) => Promise<VerifyOutcome>;

const OUTPUT_CAP = 64 * 1024;

export const runVerifyCommand: VerifyRunner = (command, options) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group, so the timeout can kill the shell's children too.
      detached: process.platform !== 'win32',
    });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > OUTPUT_CAP * 2) output = output.slice(-OUTPUT_CAP);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: timedOut ? null : code, timedOut, output: output.slice(-OUTPUT_CAP) });
    });
  });
