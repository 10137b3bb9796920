/**
 * The Bash analyser and the state-path check on inputs built to break them: hundreds of thousands of
 * words, words of hundreds of KB, paths past PATH_MAX. Each must give the answer it gives for the
 * short form (timing is measured in tests/bench/bash-analyser.mjs, not here).
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bashWrites, pathsIn, simpleCommands } from '../src/hook/bash.js';
import { projectRoot, realPathOf, stateFileOf } from '../src/hook/state-files.js';

const STATE = '.ratchet/session.json';

describe('bashWrites on huge commands', () => {
  test('150k operands: every one is a target, the state file among them (a spread of them overflowed the stack)', () => {
    const w = bashWrites(`rm ${'f '.repeat(150_000)}${STATE}`);
    expect(w.targets).toHaveLength(150_001);
    expect(w.targets.at(-1)).toBe(STATE);
    const inline = bashWrites(`python3 ${'-u '.repeat(150_000)}-c x`);
    expect(inline.opaque).toBe(true);
    expect(inline.opaqueWords).toHaveLength(150_002);
  });

  test('100k assignments, wrappers or wrapper options in front are dropped to reach the command', () => {
    for (const prefix of ['A=1 '.repeat(100_000), 'env '.repeat(100_000), `sudo ${'-E '.repeat(100_000)}`, `nice ${'-n '.repeat(50_000)}timeout 5 `]) {
      const [cmd] = simpleCommands(`${prefix}rm ${STATE}`);
      expect(cmd?.words).toEqual(['rm', STATE]);
    }
  });

  test("timeout's duration is skipped wherever the wrapper stands, not only first", () => {
    expect(bashWrites(`sudo timeout 5 rm ${STATE}`).targets).toEqual([STATE]);
    expect(bashWrites(`env timeout 5s sh -c 'echo x > ${STATE}'`).targets).toEqual([STATE]);
    expect(bashWrites(`timeout 5 rm ${STATE}`).targets).toEqual([STATE]);
  });

  test('a 300 KB word, quoted or not, is one word', () => {
    const long = 'a'.repeat(300_000);
    for (const spelled of [long, `"${long}"`, `'${long}'`, `"${'a\\"'.repeat(100_000)}"`]) {
      const [cmd] = simpleCommands(`echo ${spelled} > out.txt`);
      expect(cmd?.words).toHaveLength(2);
      expect(cmd?.redirects).toEqual(['out.txt']);
    }
    expect(simpleCommands(`echo "${'a\\"'.repeat(3)}"`)[0]?.words).toEqual(['echo', 'a"a"a"']);
  });
});

describe('pathsIn', () => {
  test.each([
    ["open('.ratchet/session.json','w')", ['open', '.ratchet/session.json']],
    ['~/.ratchet/x~~', ['~/.ratchet/x']],
    ['~~~', []],
    ['a~', []],
    ['ab~', ['ab']],
    ['~a', ['~a']],
    ['x;y', []],
    ['~~a~~b~~ c', ['~~a~~b']],
    ['é.ratchet/a', ['.ratchet/a']],
  ])('%s', (word, pieces) => {
    expect(pathsIn([word])).toEqual([word, ...pieces.filter((p) => p !== word)]);
  });

  test('a 300 KB run of ~ (every start backtracked before) yields the pieces around it', () => {
    expect(pathsIn([`open('${STATE}') #${'~'.repeat(300_000)}`])).toContain(STATE);
    const word = `x;${'~'.repeat(300_000)}b;${'~'.repeat(300_000)}`;
    expect(pathsIn([word])).toEqual([word, `${'~'.repeat(300_000)}b`]);
  });
});

describe('the state-path check on paths past PATH_MAX', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ratchet-long-paths-')));
  mkdirSync(join(root, '.ratchet'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, STATE), '{}');
  symlinkSync(join(root, '.ratchet'), join(root, 'src/state-link'));
  const project = projectRoot(root);

  test('a path of 300 KB never throws (an lstat ENAMETOOLONG let the call through) and is judged by its name', () => {
    const long = `${'a/'.repeat(150_000)}x`;
    expect(() => realPathOf(join(root, long))).not.toThrow();
    expect(stateFileOf(project, root, long)).toBeUndefined();
    expect(stateFileOf(project, root, `${'b'.repeat(300_000)}/../${STATE}`)).toBe(STATE);
    expect(stateFileOf(project, root, `${'a/'.repeat(150_000)}${'../'.repeat(150_000)}${STATE}`)).toBe(STATE);
    // A file where a directory should be (ENOTDIR) is no link either.
    expect(stateFileOf(project, root, `${STATE}/x`)).toBe(`${STATE}/x`);
  });

  test('with a directory cache: the same answers as without, links followed', () => {
    const dirs = new Map<string, string>();
    for (const path of ['src/a.txt', 'src/state-link/session.json', 'src/state-link', 'src/missing/deeper/x', STATE, '/etc/passwd', `src/${'c'.repeat(5000)}`]) {
      expect(stateFileOf(project, root, path, dirs), path).toBe(stateFileOf(project, root, path));
    }
    expect(stateFileOf(project, root, 'src/state-link/session.json', dirs)).toBe(STATE);
  });
});
