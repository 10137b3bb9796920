/**
 * What the tests of the commands' edges share (src/commands/<area>/inputs.ts): the usage error a
 * parse function throws, and a command run in process.
 */
import { expect } from 'vitest';
import type { Io } from '../src/context.js';
import { CliError } from '../src/errors.js';
import { run } from '../src/main.js';

/** The message of the usage error (a CliError, exit 2) that `fn` throws; fails the test if it throws none. */
export function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    return (err as CliError).message;
  }
  throw new Error('expected a usage error');
}

/** `ratchet <args>` run in process in `cwd`: its exit code and what it printed. */
export async function inProcess(cwd: string, args: readonly string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: {}, cwd, readStdin: () => Promise.resolve(stdin) };
  const code = await run([...args], io);
  return { code, out, err };
}
