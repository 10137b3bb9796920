import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bashWrites, simpleCommands } from '../src/hook/bash.js';
import { projectRoot, stateFileOf } from '../src/hook/state-files.js';
import { toolWrites } from '../src/hook/pre-tool-use.js';
import { obligationsFrom } from '../src/hook/post-tool-use.js';
import { parsePayload } from '../src/hook/payload.js';

describe('bashWrites: what a shell command writes', () => {
  test.each([
    ['echo x > a.txt', ['a.txt']],
    ['echo x >> a.txt 2>&1', ['a.txt']],
    ['cat a 2> err.log', ['err.log']],
    ['cmd &> out.log', ['out.log']],
    ['echo x>a.txt', ['a.txt']],
    ["printf '%s' \"a > b\" | tee -a one.txt two.txt", ['one.txt', 'two.txt']],
    ['cp -r src dest/', ['dest/']],
    ['mv old new', ['old', 'new']],
    ['rm -rf build dist', ['build', 'dist']],
    ['sed -i s/a/b/ file.txt', ['s/a/b/', 'file.txt']],
    ['dd if=/dev/zero of=disk.img bs=1', ['disk.img']],
    ['FOO=1 sudo -E touch x', ['x']],
    ["bash -c 'echo hi > inner.txt'", ['inner.txt']],
    ['(cd sub && echo x > y)', ['y']],
    ['echo $(touch made-in-subshell)', ['made-in-subshell']],
    ['echo x > /dev/null', []],
    ['cat < input.txt', []],
    ['cat <<EOF\nhello\nEOF', []],
    ['ls -la # > not-a-file', []],
    ['npm test', []],
  ])('%s', (command, targets) => {
    expect(bashWrites(command).targets).toEqual(targets);
  });

  test('inline interpreter code and git checkout are opaque writers', () => {
    expect(bashWrites("python3 -c \"open('x','w')\"")).toMatchObject({ opaque: true });
    expect(bashWrites('git checkout -- src')).toMatchObject({ opaque: true });
    expect(bashWrites('git status')).toMatchObject({ opaque: false });
  });

  test('ratchet calls are recognised in every spelling, and only without redirection', () => {
    for (const c of ['ratchet run next', 'npx -y @ratchet/cli run next', 'pnpm exec ratchet run next', 'node apps/cli/bin/ratchet.js run next', 'ratchet a && ratchet b']) expect(bashWrites(c).ratchetOnly, c).toBe(true);
    for (const c of ['ratchet run next > x', 'ratchet run next; ls', 'ratchetx run']) expect(bashWrites(c).ratchetOnly, c).toBe(false);
  });

  test('an unterminated quote or a huge command does not throw', () => {
    expect(() => simpleCommands("echo 'unterminated > x")).not.toThrow();
    expect(bashWrites(`echo ${'a '.repeat(200_000)} > big.txt`).targets).toEqual(['big.txt']);
    expect(() => bashWrites("bash -c \"bash -c 'bash -c \\\"bash -c x\\\"'\"")).not.toThrow();
  });
});

describe('stateFileOf: state paths however they are spelled', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ratchet-state-')));
  mkdirSync(join(root, '.ratchet/flows'), { recursive: true });
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, '.ratchet/session.json'), '{}');
  symlinkSync(join(root, '.ratchet'), join(root, 'src/link-dir'));
  symlinkSync(join(root, '.ratchet/session.json'), join(root, 'innocent.json'));
  symlinkSync(join(root, '.ratchet/flows/new.json'), join(root, 'dangling.json'));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'ratchet-outside-')));
  symlinkSync(join(root, '.ratchet'), join(outside, 'into-project'));
  const project = projectRoot(root);

  test.each([
    ['.ratchet/session.json', '.ratchet/session.json'],
    ['./.ratchet//session.json', '.ratchet/session.json'],
    ['src/../.ratchet/session.json', '.ratchet/session.json'],
    ['.RATCHET/SESSION.JSON', '.RATCHET/SESSION.JSON'],
    ['src/link-dir/session.json', '.ratchet/session.json'],
    ['innocent.json', '.ratchet/session.json'],
    ['dangling.json', '.ratchet/flows/new.json'],
    [join(outside, 'into-project/session.json'), '.ratchet/session.json'],
    ['logs/activity.log.jsonl', 'logs/activity.log.jsonl'],
    ['knowledge_core/lessons.jsonl', 'knowledge_core/lessons.jsonl'],
    ['knowledge_core/plan_registry.json', 'knowledge_core/plan_registry.json'],
    ['knowledge_core/plan_registry.json.digest', 'knowledge_core/plan_registry.json.digest'],
    ['knowledge_core/plan_registry.json.prev', 'knowledge_core/plan_registry.json.prev'],
    ['docs/job.log.md', 'docs/job.log.md'],
    ['ratchet.config.json', 'ratchet.config.json'],
    ['.ratchet', '.ratchet'],
  ])('%s is state', (path, rel) => {
    expect(stateFileOf(project, root, path)).toBe(rel);
  });

  test.each(['src/app.js', 'postmortems/t.md', 'logs/other.log', 'ratchet.config.json.md.txt', join(outside, 'x'), 'a\0b', ''])('%s is not state', (path) => {
    expect(stateFileOf(project, root, path)).toBeUndefined();
  });

  test('relative paths resolve against the tool call\'s directory', () => {
    expect(stateFileOf(project, join(root, 'src'), '../.ratchet/session.json')).toBe('.ratchet/session.json');
  });
});

describe('tool inputs and payloads', () => {
  test('file tools, Bash and other servers\' write tools name their targets', () => {
    expect(toolWrites('Write', { file_path: 'a' }).targets).toEqual(['a']);
    expect(toolWrites('NotebookEdit', { notebook_path: 'n.ipynb' }).targets).toEqual(['n.ipynb']);
    expect(toolWrites('mcp__fs__write_file', { path: '.ratchet/x.json', content: 'x' }).targets).toEqual(['.ratchet/x.json']);
    expect(toolWrites('mcp__fs__read_file', { path: '.ratchet/x.json' }).targets).toEqual([]);
    expect(toolWrites('Read', { file_path: 'a' }).targets).toEqual([]);
  });

  test('ratchet commands that create obligations are remembered', () => {
    const empty = { sessionId: 's', runners: [], jixoLocks: [], flows: [], stopBlocks: 0, lastBlock: null };
    const next = obligationsFrom('ratchet campaign ready --claim b1 && ratchet jixo lock .jixo/a.log.md --runner r1; ratchet flow start reasoning --session f1', empty);
    expect(next).toMatchObject({ runners: ['b1'], jixoLocks: [{ log: '.jixo/a.log.md', runner: 'r1' }], flows: ['f1'] });
    expect(obligationsFrom('ratchet campaign ready', empty)).toBeUndefined();
    expect(obligationsFrom('echo ratchet campaign ready --claim b1', empty)).toBeUndefined();
  });

  test('payloads: BOM and unknown fields are fine; non-objects are refused', () => {
    expect(parsePayload('\uFEFF{"tool_name":"Write","extra":1,"stop_hook_active":"yes"}')).toMatchObject({ toolName: 'Write', stopHookActive: false });
    expect(() => parsePayload('[]')).toThrow(TypeError);
    expect(() => parsePayload('')).toThrow(TypeError);
    expect(() => parsePayload('{')).toThrow(SyntaxError);
  });
});
