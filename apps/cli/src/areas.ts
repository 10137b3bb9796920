/**
 * Command areas registered after the core commands (fsm, plan, init, quickstart). Each area module
 * defines its commands' names, options and help text and loads implementations lazily through the
 * ActionFactory. Building commander's tree for every area still costs milliseconds on each call, so
 * a call registers only the area that owns its top-level command (all of them for --help, for an
 * unknown command, and for the protocol docs); `commands` lists those names, and a test checks it
 * against what `register` defines.
 */
import type { Command } from 'commander';
import type { ActionFactory } from './program.js';
import { registerOrchestrator } from './commands/orchestrator/register.js';
import { registerProtocol } from './commands/protocol/register.js';
import { registerLessons } from './commands/lessons/register.js';
import { registerJixo } from './commands/jixo/register.js';
import { registerFlow } from './commands/flow/register.js';
import { registerCampaign } from './commands/campaign/register.js';
import { registerWorkspace } from './commands/workspace/register.js';
import { registerMemory } from './commands/memory/register.js';
import { registerGoals } from './commands/goals/register.js';

export type RegisterArea = (program: Command, action: ActionFactory) => void;

export interface Area {
  /** The top-level commands `register` defines. */
  commands: readonly string[];
  register: RegisterArea;
}

export const AREAS: readonly Area[] = [
  { commands: ['task', 'run', 'research'], register: registerOrchestrator },
  { commands: ['protocol'], register: registerProtocol },
  { commands: ['lessons'], register: registerLessons },
  { commands: ['jixo'], register: registerJixo },
  { commands: ['flow'], register: registerFlow },
  { commands: ['campaign'], register: registerCampaign },
  { commands: ['workspace'], register: registerWorkspace },
  { commands: ['memory'], register: registerMemory },
  { commands: ['goals', 'actions', 'proposals', 'turn'], register: registerGoals },
];

/** Global options that take a value (their value is not a command name). */
const VALUE_OPTIONS = new Set(['--cwd']);

/** The first command name in argv, skipping global options; undefined when there is none. */
export function commandName(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/** The areas a call with `argv` needs: the one owning its command, or all (no command, --help, an unknown one). */
export function areasFor(argv: readonly string[] | undefined, coreCommands: ReadonlySet<string>): readonly Area[] {
  const name = argv === undefined ? undefined : commandName(argv);
  if (name === undefined || coreCommands.has(name)) return name === undefined ? AREAS : [];
  const owner = AREAS.filter((area) => area.commands.includes(name));
  return owner.length > 0 ? owner : AREAS;
}
