/**
 * Command areas registered after the core commands (fsm, plan, init, quickstart). Each area module
 * defines its commands' names, options and help text and loads implementations lazily through the
 * ActionFactory. Building commander's tree for every area costs milliseconds on each call, and so
 * does parsing their definitions (about half of the CLI's main chunk), so a call imports and
 * registers only the area that owns its top-level command (all of them for --help, for an unknown
 * command, and for the protocol docs); `commands` lists those names, and a test checks it against
 * what each area registers.
 */
import type { Command } from 'commander';
import type { ActionFactory } from './program.js';

export type RegisterArea = (program: Command, action: ActionFactory) => void;

export interface Area {
  /** The top-level commands the area's register function defines. */
  commands: readonly string[];
  /** Imports the area's definitions (its own chunk in the bundle). */
  load: () => Promise<RegisterArea>;
}

export const AREAS: readonly Area[] = [
  { commands: ['task', 'run', 'research'], load: async () => (await import('./commands/orchestrator/register.js')).registerOrchestrator },
  { commands: ['protocol'], load: async () => (await import('./commands/protocol/register.js')).registerProtocol },
  { commands: ['lessons'], load: async () => (await import('./commands/lessons/register.js')).registerLessons },
  { commands: ['jixo'], load: async () => (await import('./commands/jixo/register.js')).registerJixo },
  { commands: ['flow'], load: async () => (await import('./commands/flow/register.js')).registerFlow },
  { commands: ['campaign'], load: async () => (await import('./commands/campaign/register.js')).registerCampaign },
  { commands: ['workspace'], load: async () => (await import('./commands/workspace/register.js')).registerWorkspace },
  { commands: ['memory'], load: async () => (await import('./commands/memory/register.js')).registerMemory },
  { commands: ['hook'], load: async () => (await import('./commands/hook/register.js')).registerHook },
  { commands: ['import'], load: async () => (await import('./commands/import/register.js')).registerImport },
  { commands: ['doctor'], load: async () => (await import('./commands/doctor/register.js')).registerDoctor },
  { commands: ['goals', 'actions', 'proposals', 'turn', 'questions', 'stories'], load: async () => (await import('./commands/goals/register.js')).registerGoals },
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
