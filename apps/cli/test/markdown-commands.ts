/**
 * The `ratchet ...` commands a Markdown document shows an agent, and whether each would run as
 * written against the CLI's command tree (the AGENTS.md and plugin tests share them).
 */
import type { Command, Option } from 'commander';

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
