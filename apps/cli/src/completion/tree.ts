/**
 * The command tree as shell completion needs it, read from commander's definitions (the same
 * `buildProgram` the CLI runs), so completion cannot drift from the commands: every command path
 * with its subcommands, options (which take a value, and its choices) and positional choices.
 */
import type { Command, Option } from 'commander';

export interface CompletionOption {
  long: string | undefined;
  short: string | undefined;
  takesValue: boolean;
  choices: readonly string[];
  description: string;
}

export interface CompletionNode {
  /** The words below `ratchet`, space-separated; '' for the root. */
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  options: CompletionOption[];
  /** Per positional argument: the values it accepts (empty when any). */
  argChoices: (readonly string[])[];
}

export interface CompletionTree {
  name: string;
  nodes: CompletionNode[];
  /** Options of the root accepted at every level (`ratchet task start --json`): all but --help and --version, which each command has of its own. */
  globals: CompletionOption[];
}

export function completionTree(program: Command): CompletionTree {
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Command, path: string): void => {
    const help = cmd.createHelp();
    const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
    nodes.push({
      path,
      description: oneLine(cmd.description()),
      subcommands: subs.map((c) => ({ name: c.name(), description: oneLine(c.description()) })),
      options: help.visibleOptions(cmd).map(optionOf),
      argChoices: cmd.registeredArguments.map((a) => a.argChoices ?? []),
    });
    for (const sub of subs) visit(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(program, '');
  const own = new Set(['--help', '--version']);
  const globals = nodes[0]!.options.filter((o) => !own.has(o.long ?? ''));
  // A node lists only its own options; the globals are offered beside them.
  const isGlobal = new Set(globals.flatMap(spellings));
  for (const node of nodes) node.options = node.options.filter((o) => !spellings(o).some((s) => isGlobal.has(s)));
  return { name: program.name(), nodes, globals };
}

function optionOf(option: Option): CompletionOption {
  return {
    long: option.long,
    short: option.short,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
    description: oneLine(option.description),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The option's spellings (`--task-id`, `-q`). */
export function spellings(option: CompletionOption): string[] {
  return [option.long, option.short].filter((s): s is string => s !== undefined);
}

/** Single-quoted for POSIX shells (bash, zsh): no expansion inside. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A description short enough for a completion menu: its first clause, at most 80 characters. */
export function brief(text: string): string {
  const first = text.split(/(?<=[.;:])\s|\s\(/)[0]!.replace(/[.;:]$/, '');
  return first.length <= 80 ? first : `${first.slice(0, 79).replace(/\s+\S*$/, '')}…`;
}
