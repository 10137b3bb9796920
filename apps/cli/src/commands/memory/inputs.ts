/**
 * The edge of the memory area: commander's arguments and options (register.ts defines them) parsed
 * into the typed inputs of src/operations/memory.ts. The command modules below see only these.
 */
import { CliError } from '../../errors.js';
import {
  MEMORY_EDGE_TYPES,
  type MemoryAddFailureInput,
  type MemoryAddPatternInput,
  type MemoryFeedbackInput,
  type MemoryLinkInput,
  type MemoryObserveInput,
  type MemoryPruneInput,
  type MemoryQueryInput,
  type MemoryStatsInput,
} from '../../operations/memory-input.js';
import { argument, choiceOption, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';
import { numberOption, type NumberRange } from './shared.js';

/** An option commander requires (requiredOption): present, a string. */
function requiredString(options: OptionBag, key: string): string {
  const value = stringOption(options, key);
  if (value === undefined) throw new CliError(`--${key} is required`, { code: 'bad-option' });
  return value;
}

/** A number option commander requires (`--cost 2000`): present, in its range, or the usage error naming it. */
function requiredNumber(options: OptionBag, key: string, flag: string, range: NumberRange): number {
  const value = number(options, key, flag, range);
  if (value === undefined) throw new CliError(`${flag} is required`, { code: 'bad-option' });
  return value;
}

/** A number option (`--depth 3`), checked: in its range, or the usage error naming it. */
function number(options: OptionBag, key: string, flag: string, range: NumberRange): number | undefined {
  return numberOption(stringOption(options, key), flag, range);
}

export function addFailureInput(_args: readonly string[], options: OptionBag): MemoryAddFailureInput {
  return {
    trigger: requiredString(options, 'trigger'),
    fix: requiredString(options, 'fix'),
    cost: requiredNumber(options, 'cost', '--cost', { min: 0 }),
    name: stringOption(options, 'name'),
    match: stringOption(options, 'match'),
    source: stringsOption(options, 'source'),
    tags: stringsOption(options, 'tag'),
    file: stringOption(options, 'file'),
  };
}

export function addPatternInput(_args: readonly string[], options: OptionBag): MemoryAddPatternInput {
  return {
    trigger: requiredString(options, 'trigger'),
    insight: requiredString(options, 'insight'),
    saved: requiredNumber(options, 'saved', '--saved', { min: 0 }),
    name: stringOption(options, 'name'),
    source: stringsOption(options, 'source'),
    tags: stringsOption(options, 'tag'),
    file: stringOption(options, 'file'),
  };
}

export function feedbackInput(args: readonly string[], options: OptionBag): MemoryFeedbackInput {
  const name = args[0];
  if (name === undefined) throw new CliError('memory feedback: missing <name>');
  const helped = flagOption(options, 'helped');
  if (!helped && !flagOption(options, 'failed')) throw new CliError('memory feedback: pass --helped or --failed', { code: 'bad-option' });
  return { name, outcome: helped ? 'helped' : 'failed', file: stringOption(options, 'file') };
}

export function linkInput(args: readonly string[], options: OptionBag): MemoryLinkInput {
  if (args[0] === undefined || args[1] === undefined) throw new CliError('memory link: need <from> and <to>');
  const type = choiceOption(options, 'type', MEMORY_EDGE_TYPES);
  if (type === undefined) throw new CliError(`--type is required: one of ${MEMORY_EDGE_TYPES.join(', ')}`, { code: 'bad-option' });
  return { from: argument(args, 0, 'from'), to: argument(args, 1, 'to'), type, file: stringOption(options, 'file') };
}

export function pruneInput(_args: readonly string[], options: OptionBag): MemoryPruneInput {
  return { minImportance: number(options, 'minImportance', '--min-importance', { min: 0 }), dryRun: flagOption(options, 'dryRun'), file: stringOption(options, 'file') };
}

export function statsInput(_args: readonly string[], options: OptionBag): MemoryStatsInput {
  return { file: stringOption(options, 'file') };
}

export function observeInput(args: readonly string[], options: OptionBag): MemoryObserveInput {
  return {
    campaign: args[0],
    verify: flagOption(options, 'verify'),
    timeoutMs: number(options, 'timeoutMs', '--timeout-ms', { min: 100, max: 3_600_000, integer: true }),
    workspaceDir: stringOption(options, 'workspaceDir'),
    file: stringOption(options, 'file'),
  };
}

/** `memory import <ftl-memory.json>`: the FTL file to merge, and the memory file it merges into. */
export interface MemoryImportArgs {
  source: string;
  file: string | undefined;
}

export function importInput(args: readonly string[], options: OptionBag): MemoryImportArgs {
  const source = args[0];
  if (source === undefined) throw new CliError('memory import: missing <file>');
  return { source, file: stringOption(options, 'file') };
}

/** `memory related <name>`: the walk's depth (1-10) and weight floor (>= 0), defaults applied. */
export interface MemoryRelatedArgs {
  name: string;
  maxDepth: number;
  minWeight: number;
  file: string | undefined;
}

export function relatedInput(args: readonly string[], options: OptionBag): MemoryRelatedArgs {
  const name = args[0];
  if (name === undefined) throw new CliError('memory related: missing <name>');
  return {
    name,
    maxDepth: number(options, 'depth', '--depth', { min: 1, max: 10, integer: true }) ?? 3,
    minWeight: number(options, 'minWeight', '--min-weight', { min: 0 }) ?? 0.5,
    file: stringOption(options, 'file'),
  };
}

/** What `memory query` and `memory explain` share: the topic and how it is recalled, defaults applied. */
interface MemoryRecallCommon {
  topic: string;
  failures: number;
  patterns: number;
  threshold: number;
  tags: string[];
  retrieval: MemoryRetrieval;
  file: string | undefined;
}

export type MemoryRetrieval = NonNullable<MemoryQueryInput['retrieval']>;

/** `memory query` (`--record` counts the retrieval) or `memory explain` (`--name` explains one entry); register.ts passes the mode as the first argument. */
export type MemoryRecallArgs = MemoryRecallCommon & ({ mode: 'query'; record: boolean } | { mode: 'explain'; name: string | undefined });

/** `--retrieval hybrid|bm25` (default hybrid), with the message this option has always had. */
function retrievalInput(options: OptionBag): MemoryRetrieval {
  const v = options.retrieval ?? 'hybrid';
  if (v !== 'hybrid' && v !== 'bm25') throw new CliError(`--retrieval: expected hybrid or bm25, got ${JSON.stringify(v)}`, { code: 'bad-option' });
  return v;
}

export function recallInput(args: readonly string[], options: OptionBag): MemoryRecallArgs {
  const [mode, ...words] = args;
  const common: MemoryRecallCommon = {
    topic: words.join(' '),
    failures: number(options, 'failures', '--failures', { min: 0, max: 1000, integer: true }) ?? 5,
    patterns: number(options, 'patterns', '--patterns', { min: 0, max: 1000, integer: true }) ?? 3,
    threshold: number(options, 'threshold', '--threshold', { min: 0, max: 1 }) ?? 0.25,
    tags: stringsOption(options, 'tag') ?? [],
    retrieval: retrievalInput(options),
    file: stringOption(options, 'file'),
  };
  return mode === 'explain' ? { ...common, mode, name: stringOption(options, 'name') } : { ...common, mode: 'query', record: flagOption(options, 'record') };
}
