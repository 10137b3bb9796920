/**
 * The edge of the workspace area: commander's arguments and options (register.ts defines them)
 * parsed into the typed inputs of src/operations/workspace.ts. The command modules see only these.
 */
import type { BlockWorkspaceInput, CompleteWorkspaceInput, CreateWorkspaceInput, ShowWorkspaceInput, WorkspacesInput } from '../../operations/workspace.js';
import { flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';

export function workspacesInput(_args: readonly string[], options: OptionBag): WorkspacesInput {
  return { workspaceDir: stringOption(options, 'workspaceDir') };
}

export interface ShowInput extends ShowWorkspaceInput {
  /** Print the file as it is. */
  xml: boolean;
}

export function showInput(args: readonly string[], options: OptionBag): ShowInput {
  return { seq: args[0] ?? '', workspaceDir: stringOption(options, 'workspaceDir'), xml: flagOption(options, 'xml') };
}

export function createInput(args: readonly string[], options: OptionBag): CreateWorkspaceInput {
  // `--memory FILE` and `--no-memory` share the key: a file, false, or (neither given) undefined.
  const memory = options.memory === false ? false : options.memory === true ? undefined : stringOption(options, 'memory');
  return { seq: args[0] ?? '', workspaceDir: stringOption(options, 'workspaceDir'), runner: stringOption(options, 'runner'), priorKnowledge: stringOption(options, 'priorKnowledge'), memory };
}

/** `workspace complete|block`: register.ts names the action as the first argument. */
export type FinishInput = { outcome: 'complete'; input: CompleteWorkspaceInput } | { outcome: 'block'; input: BlockWorkspaceInput };

export function finishInput(args: readonly string[], options: OptionBag): FinishInput {
  const common = { seq: args[1] ?? '', workspaceDir: stringOption(options, 'workspaceDir'), runner: stringOption(options, 'runner'), utilized: stringsOption(options, 'utilized') };
  if (args[0] === 'block') return { outcome: 'block', input: { ...common, reason: stringOption(options, 'reason') ?? '' } };
  return { outcome: 'complete', input: { ...common, delivered: stringOption(options, 'delivered'), fromFile: stringOption(options, 'fromFile') } };
}
