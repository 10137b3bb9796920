/**
 * AGENTS.md cannot drift from the CLI: every `ratchet ...` command the compiled protocols show an
 * agent (inline code and code-block lines) must name a real command path of buildProgram, use only
 * options that command (or the root) defines, and pass no more positional arguments than it takes.
 */
import { readFileSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { describe, expect, test } from 'vitest';
import type { Io } from '../src/context.js';
import { buildProgram } from '../src/program.js';

const AGENTS = new URL('../../../AGENTS.md', import.meta.url);

/** Every `ratchet ...` command shown: inline code spans, and lines of fenced blocks (not the embedded usage text). */
export function ratchetCommands(markdown: string): string[] {
  const found: string[] = [];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) {
      const m = /^\s*(?:\$\s+)?(ratchet\s.*)$/.exec(line);
      if (m) found.push(m[1]!.replace(/\s+#.*$/, ''));
      continue;
    }
    for (const span of line.matchAll(/`(ratchet\s[^`]+)`/g)) found.push(span[1]!);
  }
  // A shell line may chain commands: judge each ratchet part on its own.
  return found.flatMap((c) => c.split(/\s*(?:\|\||&&|\||;)\s*/).filter((part) => part.startsWith('ratchet ')));
}

function tokens(command: string): string[] {
  return [...command.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((m) => m[0]);
}

/** Why `command` would not run as written, or undefined. */
export function problemOf(program: Command, command: string): string | undefined {
  const words = tokens(command).slice(1);
  let cmd = program;
  let i = 0;
  for (; i < words.length && words[i] !== '...'; i++) {
    const global = cmd === program ? program.options.find((o) => o.long === words[i] || o.short === words[i]) : undefined;
    if (global !== undefined) {
      if (global.required) i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === words[i] || c.aliases().includes(words[i]!));
    if (sub === undefined) break;
    cmd = sub;
  }
  if (cmd === program) return `"${words[0] ?? ''}" is not a ratchet command`;
  const path = `ratchet ${[...cmdPath(cmd)].join(' ')}`;
  const options: Option[] = [...cmd.options, ...program.options];
  const takesArgs = cmd.registeredArguments;
  const variadic = takesArgs.some((a) => a.variadic);
  let positional = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word === '...' || word === '…') break; // prose: "and the rest"
    if (word.startsWith('-') && word !== '-') {
      const [flag, inline] = word.split('=', 2) as [string, string | undefined];
      const option = options.find((o) => o.long === flag || o.short === flag);
      if (option === undefined) {
        if (word.startsWith('--') && !/^--[a-z]/.test(word)) continue; // prose like `--` separators
        return `${path} has no option ${flag}`;
      }
      if (option.required && inline === undefined) i++;
      continue;
    }
    if (cmd.commands.length > 0 && positional === 0 && takesArgs.length === 0) return `${path} has no subcommand "${word}"`;
    positional++;
  }
  if (!variadic && positional > takesArgs.length) return `${path} takes ${takesArgs.length} argument(s), ${positional} given`;
  return undefined;
}

function cmdPath(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

const silent: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, env: {}, cwd: '/', readStdin: () => Promise.resolve('') };

describe('AGENTS.md shows only commands the CLI has', () => {
  test('every `ratchet ...` command in the compiled AGENTS.md exists, with options it defines', { timeout: 60_000 }, async () => {
    const program = await buildProgram(silent, { exitCode: 0 });
    const commands = ratchetCommands(readFileSync(AGENTS, 'utf8'));
    expect(commands.length).toBeGreaterThan(20);
    const problems = [...new Set(commands)].flatMap((c) => {
      const p = problemOf(program, c);
      return p === undefined ? [] : [`${c}: ${p}`];
    });
    expect(problems).toEqual([]);
  });

  test('the checker refuses what the CLI would refuse', async () => {
    const program = await buildProgram(silent, { exitCode: 0 });
    expect(problemOf(program, 'ratchet task start <task-id>')).toBe('ratchet task start takes 0 argument(s), 1 given');
    expect(problemOf(program, 'ratchet task begin --task-id x')).toBe('ratchet task has no subcommand "begin"');
    expect(problemOf(program, 'ratchet task start --id x')).toBe('ratchet task start has no option --id');
    expect(problemOf(program, 'ratchet nothing')).toBe('"nothing" is not a ratchet command');
    expect(problemOf(program, 'ratchet task start --task-id T-1 --no-network')).toBeUndefined();
    expect(problemOf(program, 'ratchet --json run next')).toBeUndefined();
  });
});
