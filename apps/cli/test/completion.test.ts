/**
 * `ratchet completion <shell>`: the scripts are loaded in the real shells and asked to complete
 * command lines. bash through its own completion machinery (`complete -p`, COMP_WORDS/COMP_CWORD and
 * the registered function), fish through `complete -C`, zsh with its completion builtins stubbed
 * to print what they would offer. Every command path of buildProgram is checked, so a command added
 * to the tree is completed without touching the generator.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { completionScript, completionTree, type CompletionTree } from '../src/completion/index.js';
import { buildProgram } from '../src/program.js';
import { run } from '../src/main.js';

const silent: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') };
const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'ratchet-completion-'));

function shell(cmd: string, args: string[], script: string): string {
  const file = join(dir, `run-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, script);
  const r = spawnSync(cmd, [...args, file], { encoding: 'utf8', timeout: 120_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } });
  if (r.status !== 0) throw new Error(`${cmd} exited ${String(r.status)}: ${r.stderr}`);
  return r.stdout;
}

/** bash: load the script, then for each line of words complete the last one; one answer line per case. */
function bashComplete(script: string, cases: string[][]): string[][] {
  const file = join(dir, 'ratchet.bash');
  writeFileSync(file, script);
  const calls = cases.map((words) => `t ${words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')}`).join('\n');
  const out = shell('bash', ['--norc', '--noprofile'], `source '${file}'
fn=$(complete -p ratchet | sed -E 's/.* -F ([^ ]+) .*/\\1/')
t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); "$fn"; local IFS=' '; echo "\${COMPREPLY[*]}"; }
${calls}
`);
  return out.split('\n').slice(0, cases.length).map((l) => (l === '' ? [] : l.split(' ')));
}

let tree: CompletionTree;
let program: Command;
beforeAll(async () => {
  program = await buildProgram(silent, { exitCode: 0 });
  tree = completionTree(program);
}, 60_000);

describe('the tree', () => {
  test('has every command path of the program, with its options and choices', () => {
    const paths = tree.nodes.map((n) => n.path);
    for (const p of ['', 'task', 'task start', 'protocol compile', 'protocol show', 'plan registry register', 'completion', 'hook']) expect(paths).toContain(p);
    const compile = tree.nodes.find((n) => n.path === 'protocol compile')!;
    expect(compile.options.find((o) => o.long === '--detail')).toMatchObject({ takesValue: true, choices: ['compact', 'full'] });
    expect(compile.options.find((o) => o.long === '--check')).toMatchObject({ takesValue: false });
    expect(tree.nodes.find((n) => n.path === 'completion')!.argChoices).toEqual([['bash', 'zsh', 'fish']]);
    expect(tree.globals.map((o) => o.long)).toEqual(['--json', '--cwd', '--quiet', '--no-color']);
  });
});

describe.skipIf(!has('bash'))('bash', () => {
  test('registers a completion for ratchet and completes subcommands at every level', { timeout: 120_000 }, () => {
    const script = completionScript(program, 'bash');
    const withSubs = tree.nodes.filter((n) => n.subcommands.length > 0);
    const answers = bashComplete(script, withSubs.map((n) => ['ratchet', ...n.path.split(' ').filter(Boolean), '']));
    withSubs.forEach((n, i) => expect(answers[i], n.path).toEqual(n.subcommands.map((s) => s.name)));
  });

  test('options, option values, argument choices, prefixes, and option values skipped in the walk', { timeout: 120_000 }, () => {
    const [startOpts, detail, prefix, cwdValue, shellArg, eqForm, afterPositional, hookEvent] = bashComplete(completionScript(program, 'bash'), [
      ['ratchet', 'task', 'start', '--'],
      ['ratchet', 'protocol', 'compile', '--detail', ''],
      ['ratchet', '--json', 'protocol', 'sh'],
      ['ratchet', '--cwd', 'task', ''],
      ['ratchet', 'completion', ''],
      ['ratchet', '--cwd=x', 'task', 's'],
      ['ratchet', 'protocol', 'show', 'fdc', '--a'],
      ['ratchet', 'hook', 'st'],
    ]);
    expect(startOpts).toEqual(expect.arrayContaining(['--task-id', '--no-network', '--help', '--json', '--cwd', '--quiet']));
    expect(startOpts).not.toContain('--version');
    expect(detail).toEqual(['compact', 'full']);
    expect(prefix).toEqual(['show']);
    // `task` is the value of --cwd, so the root's commands are offered.
    expect(cwdValue).toEqual(expect.arrayContaining(['task', 'protocol', 'completion', 'init']));
    expect(shellArg).toEqual(['bash', 'zsh', 'fish']);
    expect(eqForm).toEqual(['start', 'submit']);
    expect(afterPositional).toEqual(['--all']);
    expect(hookEvent).toEqual(['stop']);
  });

  test('hostile text in the tree (quotes, $(...), backticks, newlines) is data, never run', { timeout: 120_000 }, () => {
    const marker = join(dir, 'pwned');
    const evil = `it's $(touch ${marker}) \`touch ${marker}\` "x"\n; touch ${marker}`;
    const p = new Command('ratchet').description(evil);
    p.command('go').description(evil).addOption(new Option('--mode <m>', evil).choices(["a'b", '$(touch-x)']));
    for (const shellName of ['bash', 'zsh', 'fish'] as const) {
      const script = completionScript(p, shellName);
      if (shellName === 'bash') {
        const [modes] = bashComplete(script, [['ratchet', 'go', '--mode', '']]);
        expect(modes).toEqual(["a'b", '$(touch-x)']);
      } else if (has(shellName)) {
        const file = join(dir, `evil.${shellName}`);
        writeFileSync(file, script);
        if (shellName === 'fish') shell('fish', ['--no-config'], `source '${file}'\ncomplete -C 'ratchet go --mode '\n`);
        else shell('zsh', ['-f'], `compdef() { :; }\nsource '${file}'\n`);
      }
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(!has('zsh'))('zsh (install zsh to run these)', () => {
  test('parses (zsh -n) and offers subcommands with descriptions, options, values and choices', { timeout: 120_000 }, () => {
    const file = join(dir, '_ratchet');
    writeFileSync(file, completionScript(program, 'zsh'));
    shell('zsh', ['-n'], `source '${file}'\n`);
    const out = shell('zsh', ['-f'], `compdef() { print "compdef $*"; }
_describe() { local arr=\${@[-1]}; print -l -- \${(P)arr}; }
compadd() { print -l -- \${(P)2}; }
_files() { print FILES; }
source '${file}'
t() { words=("$@"); CURRENT=$#words; print "== $*"; _ratchet; }
t ratchet task ''
t ratchet protocol compile --detail ''
t ratchet task start --
t ratchet --cwd task ''
t ratchet completion ''
t ratchet protocol show fdc ''
`);
    const section = (head: string): string[] => out.split(`== ${head}\n`)[1]!.split('\n==')[0]!.trim().split('\n');
    expect(out.startsWith('compdef _ratchet ratchet\n')).toBe(true);
    expect(section('ratchet task ')).toEqual(['start:begin a task', expect.stringMatching(/^close:/), expect.stringMatching(/^submit:/), expect.stringMatching(/^reset:/)]);
    expect(section('ratchet protocol compile --detail ')).toEqual(['compact', 'full']);
    expect(section('ratchet task start --')).toEqual(expect.arrayContaining(['--task-id:task id', expect.stringMatching(/^--json:/), expect.stringMatching(/^--cwd:/)]));
    expect(section('ratchet --cwd task ')).toEqual(expect.arrayContaining([expect.stringMatching(/^task:/), expect.stringMatching(/^completion:/)]));
    expect(section('ratchet completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(section('ratchet protocol show fdc ')).toEqual(['FILES']);
  });
});

describe.skipIf(!has('fish'))('fish (install fish to run these)', () => {
  test('parses (fish -n) and `complete -C` completes every level', { timeout: 120_000 }, () => {
    const file = join(dir, 'ratchet.fish');
    writeFileSync(file, completionScript(program, 'fish'));
    shell('fish', ['-n'], `source '${file}'\n`);
    const withSubs = tree.nodes.filter((n) => n.subcommands.length > 0);
    const lines = withSubs.map((n) => `echo '== ${n.path}'; complete -C 'ratchet ${n.path}${n.path === '' ? '' : ' '}'`);
    const out = shell('fish', ['--no-config'], `source '${file}'\n${lines.join('\n')}\necho '== detail'; complete -C 'ratchet protocol compile --detail '\necho '== opts'; complete -C 'ratchet task start --ta'\necho '== cwd'; complete -C 'ratchet --cwd task '\necho '== end'\n`);
    const section = (head: string): string[] => out.split(`== ${head}\n`)[1]!.split('\n==')[0]!.trim().split('\n').map((l) => l.split('\t')[0]!);
    for (const n of withSubs) expect([...section(n.path)].sort(), n.path).toEqual(n.subcommands.map((s) => s.name).sort());
    expect(section('detail')).toEqual(['compact', 'full']);
    expect(section('opts')).toEqual(['--task-id']);
    expect(section('cwd')).toContain('task');
  });
});

describe('ratchet completion', () => {
  test('prints the script for each shell; an unknown shell is a usage error (exit 2)', { timeout: 60_000 }, async () => {
    let out = '';
    let err = '';
    const io: Io = { ...silent, stdout: (t) => (out += t), stderr: (t) => (err += t) };
    expect(await run(['completion', 'bash'], io)).toBe(0);
    expect(out).toContain('complete -o filenames -F _ratchet ratchet');
    out = '';
    expect(await run(['completion', 'tcsh'], io)).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('tcsh');
  });
});
