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
  type MemoryStatsInput,
} from '../../operations/memory-input.js';
import { argument, choiceOption, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';
import { numberOption } from './shared.js';

/** An option commander requires (requiredOption): present, a string. */
function requiredString(options: OptionBag, key: string): string {
  const value = stringOption(options, key);
  if (value === undefined) throw new CliError(`--${key} is required`, { code: 'bad-option' });
  return value;
}

export function addFailureInput(_args: readonly string[], options: OptionBag): MemoryAddFailureInput {
  return {
    trigger: requiredString(options, 'trigger'),
    fix: requiredString(options, 'fix'),
    cost: numberOption(options, 'cost', '--cost', { min: 0 })!,
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
    saved: numberOption(options, 'saved', '--saved', { min: 0 })!,
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
  return { minImportance: numberOption(options, 'minImportance', '--min-importance', { min: 0 }), dryRun: flagOption(options, 'dryRun'), file: stringOption(options, 'file') };
}

export function statsInput(_args: readonly string[], options: OptionBag): MemoryStatsInput {
  return { file: stringOption(options, 'file') };
}

export function observeInput(args: readonly string[], options: OptionBag): MemoryObserveInput {
  return {
    campaign: args[0],
    verify: flagOption(options, 'verify'),
    timeoutMs: numberOption(options, 'timeoutMs', '--timeout-ms', { min: 100, max: 3_600_000, integer: true }),
    workspaceDir: stringOption(options, 'workspaceDir'),
    file: stringOption(options, 'file'),
  };
}
