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
  /** The area's name: its bundle is dist/cli-<name>.cjs. */
  name: string;
  /** The top-level commands the area's register function defines. */
  commands: readonly string[];
  /** Imports the area's definitions (its own chunk in the bundle). */
  load: () => Promise<RegisterArea>;
}

/**
 * The bundle's own area. The bin runs a call from the bundle of its command's area
 * (dist/cli-<area>.cjs, see scripts/bundle.mjs), built with this set to that area's name, so the
 * other areas' imports fold away and a call parses and compiles only its own area's code. `core`:
 * the core commands only. Undefined (sources, tests, the full bundle): every area.
 */
export const notBundled =
  <T>(name: string) =>
  (): Promise<T> =>
    Promise.reject(new Error(`the ${name} commands are not in this bundle (a routing bug: bin/ratchet.js picks the bundle by command)`));

export const AREAS: readonly Area[] = [
  { name: 'orchestrator', commands: ['task', 'run', 'research'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'orchestrator' ? async () => (await import('./commands/orchestrator/register.js')).registerOrchestrator : notBundled<RegisterArea>('orchestrator') },
  { name: 'protocol', commands: ['protocol'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'protocol' ? async () => (await import('./commands/protocol/register.js')).registerProtocol : notBundled<RegisterArea>('protocol') },
  { name: 'lessons', commands: ['lessons'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'lessons' ? async () => (await import('./commands/lessons/register.js')).registerLessons : notBundled<RegisterArea>('lessons') },
  { name: 'jixo', commands: ['jixo'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'jixo' ? async () => (await import('./commands/jixo/register.js')).registerJixo : notBundled<RegisterArea>('jixo') },
  { name: 'flow', commands: ['flow'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'flow' ? async () => (await import('./commands/flow/register.js')).registerFlow : notBundled<RegisterArea>('flow') },
  { name: 'campaign', commands: ['campaign'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'campaign' ? async () => (await import('./commands/campaign/register.js')).registerCampaign : notBundled<RegisterArea>('campaign') },
  { name: 'workspace', commands: ['workspace'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'workspace' ? async () => (await import('./commands/workspace/register.js')).registerWorkspace : notBundled<RegisterArea>('workspace') },
  { name: 'memory', commands: ['memory'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'memory' ? async () => (await import('./commands/memory/register.js')).registerMemory : notBundled<RegisterArea>('memory') },
  { name: 'hook', commands: ['hook'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'hook' ? async () => (await import('./commands/hook/register.js')).registerHook : notBundled<RegisterArea>('hook') },
  { name: 'import', commands: ['import'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'import' ? async () => (await import('./commands/import/register.js')).registerImport : notBundled<RegisterArea>('import') },
  { name: 'doctor', commands: ['doctor'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'doctor' ? async () => (await import('./commands/doctor/register.js')).registerDoctor : notBundled<RegisterArea>('doctor') },
  { name: 'store', commands: ['store'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'store' ? async () => (await import('./commands/store/register.js')).registerStore : notBundled<RegisterArea>('store') },
  { name: 'serve', commands: ['serve'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'serve' ? async () => (await import('./commands/serve/register.js')).registerServe : notBundled<RegisterArea>('serve') },
  { name: 'goals', commands: ['goals', 'actions', 'proposals', 'turn', 'questions', 'stories', 'scratch'], load: process.env.RATCHET_BUNDLE_AREA === undefined || process.env.RATCHET_BUNDLE_AREA === 'goals' ? async () => (await import('./commands/goals/register.js')).registerGoals : notBundled<RegisterArea>('goals') },
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
