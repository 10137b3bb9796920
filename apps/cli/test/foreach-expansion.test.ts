/**
 * `run plan` stores what lint's simulated file system made of every for_each_file, and the run serves
 * exactly that: files the plan creates before a loop are iterated, files that appear on disk later
 * are not, and a file lint expected that is gone when its step comes is caught by the step's check.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { run } from '../src/main.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratchet-foreach-'));
  await ratchet('init');
  await write('src/b.ts', 'b');
  await write('src/z.ts', 'z');
  expect((await ratchet('task', 'start', '--task-id', 'T-1', '--no-network')).code).toBe(0);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function ratchet(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: { PATH: '/usr/bin', HOME: '/home/x' }, cwd: dir, readStdin: () => Promise.resolve('') };
  const code = await run(argv, io);
  return { code, out, err };
}
const write = async (rel: string, text: string): Promise<void> => {
  await mkdir(join(dir, rel, '..'), { recursive: true });
  await writeFile(join(dir, rel), text);
};
const nextLine = async (): Promise<string | undefined> => (JSON.parse((await ratchet('--json', 'run', 'next')).out) as { next: { step?: { line: string } } }).next.step?.line;
const storedSession = async (): Promise<{ expansion?: Record<string, { plan: string; loops: string[][] }> }> => JSON.parse(await readFile(join(dir, '.ratchet/session.json'), 'utf8')) as never;

/** Run the plan to its end, doing each write step on disk first (each write a change); every line served, in order. */
async function runToEnd(): Promise<string[]> {
  const lines: string[] = [];
  let edits = 0;
  for (let line = await nextLine(); line !== undefined; line = await nextLine()) {
    lines.push(line);
    const written = /^(?:create_file_with_block|overwrite_file_with_block|replace_with_git_merge_diff) (\S+)$/.exec(line);
    if (written) await write(written[1]!, `new ${++edits}`);
    const done = await ratchet('run', 'done');
    expect(done.code, `${line}: ${done.err}`).toBe(0);
  }
  return lines;
}

const HEAD = 'set_plan loop\nplan_step_complete go\n';
const CLOSE = 'run_in_bash_session close\n';

describe('for_each_file runs what lint saw', () => {
  test('a file the plan creates is iterated; a file dropped into src/ after `run plan` is not, in the root plan or a sub-plan', async () => {
    await write('plans/main.txt', `${HEAD}create_file_with_block src/new.ts\nfor_each_file src/*.ts\n  replace_with_git_merge_diff {file}\ncall_plan plans/sub.txt\n${CLOSE}`);
    await write('plans/sub.txt', `${HEAD}for_each_file src/*.ts\n  read_file {file}\n${CLOSE}`);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    // Stored with the plan: the sub-plan (called at step 6 of main) iterates lint's list, new.ts included.
    expect((await storedSession()).expansion).toEqual({ '6': { plan: 'plans/sub.txt', loops: [['src/b.ts', 'src/new.ts', 'src/z.ts']] } });
    await write('src/stray.ts', 'not in the plan');

    const lines = await runToEnd();
    expect(lines).toEqual([
      'set_plan loop',
      'plan_step_complete go',
      'create_file_with_block src/new.ts',
      // lint's order: sorted over the simulated file system, the created file in its place.
      'replace_with_git_merge_diff src/b.ts',
      'replace_with_git_merge_diff src/new.ts',
      'replace_with_git_merge_diff src/z.ts',
      // (the call_plan line itself is not a step: the sub-plan's lines are)
      'set_plan loop',
      'plan_step_complete go',
      'read_file src/b.ts',
      'read_file src/new.ts',
      'read_file src/z.ts',
      CLOSE.trim(),
      CLOSE.trim(),
    ]);
    expect(lines.some((l) => l.includes('stray'))).toBe(false);
    expect(await storedSession()).not.toHaveProperty('expansion');
  });

  test('nested loops with {file} in the inner glob iterate what lint saw, files created by earlier iterations included', async () => {
    await write('plans/main.txt', `${HEAD}for_each_file src/*.ts\n  create_file_with_block {file}.snap\n  for_each_file src/*.snap\n    read_file {file}\n${CLOSE}`);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    await write('src/late.ts.snap', 'stray');
    expect((await runToEnd()).slice(2, -1)).toEqual([
      'create_file_with_block src/b.ts.snap',
      'read_file src/b.ts.snap',
      'create_file_with_block src/z.ts.snap',
      'read_file src/b.ts.snap',
      'read_file src/z.ts.snap',
    ]);
  });

  test('a file lint expected that is gone when its iteration comes is still served, and `run done` refuses the step', async () => {
    await write('plans/main.txt', `${HEAD}create_file_with_block src/new.ts\nfor_each_file src/*.ts\n  replace_with_git_merge_diff {file}\n${CLOSE}`);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    for (let i = 0; i < 2; i++) expect((await ratchet('run', 'done')).code).toBe(0);
    await write('src/new.ts', 'created');
    expect((await ratchet('run', 'done')).code).toBe(0);
    await write('src/b.ts', 'b, edited');
    expect((await ratchet('run', 'done')).code).toBe(0); // src/b.ts
    await unlink(join(dir, 'src/new.ts'));
    expect(await nextLine()).toBe('replace_with_git_merge_diff src/new.ts');
    const refused = await ratchet('run', 'done');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('`replace_with_git_merge_diff src/new.ts` is not done: src/new.ts does not exist');
    expect(await nextLine()).toBe('replace_with_git_merge_diff src/new.ts');
  });

  test('a sub-plan changed after `run plan` does not run: the step is refused and the task goes back to PLANNING', async () => {
    await write('plans/main.txt', `${HEAD}call_plan plans/sub.txt\n${CLOSE}`);
    await write('plans/sub.txt', `${HEAD}read_file src/b.ts\n${CLOSE}`);
    expect((await ratchet('run', 'plan', 'plans/main.txt')).code).toBe(0);
    await write('plans/sub.txt', `${HEAD}for_each_file src/*.ts\n  read_file {file}\n${CLOSE}`);
    await write('src/late.ts', 'on disk when the changed sub-plan would run');
    expect((await ratchet('run', 'done')).code).toBe(0);
    // Past plan_step_complete comes the call: the changed sub-plan is refused before it is entered.
    const refused = await ratchet('run', 'done');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('plans/sub.txt changed since `run plan` linted it');
  });

  test('globs stay inside the project: `..` is refused at `run plan`, a linked directory out of the root is not iterated', async () => {
    await write('plans/up.txt', `${HEAD}for_each_file ../*\n  read_file {file}\n${CLOSE}`);
    const up = await ratchet('run', 'plan', 'plans/up.txt');
    expect(up.code).toBe(1);
    expect(up.out).toContain('path-outside-root');
    const outside = await mkdtemp(join(tmpdir(), 'ratchet-outside-'));
    try {
      await writeFile(join(outside, 'evil.ts'), 'x');
      await symlink(outside, join(dir, 'src/ext'));
      await write('plans/deep.txt', `${HEAD}for_each_file src/**/*.ts\n  read_file {file}\n${CLOSE}`);
      expect((await ratchet('run', 'plan', 'plans/deep.txt')).code).toBe(0);
      expect((await runToEnd()).filter((l) => l.startsWith('read_file'))).toEqual(['read_file src/b.ts', 'read_file src/z.ts']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
