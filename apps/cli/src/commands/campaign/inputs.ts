/**
 * The edge of the campaign area: commander's arguments and options (register.ts defines them)
 * parsed into the typed inputs of src/operations/campaign.ts. The command modules see only these.
 */
import {
  TASK_STATUS_NAMES,
  planSource,
  type AddTasksInput,
  type CampaignInput,
  type CampaignPhaseInput,
  type CampaignReadyInput,
  type CompleteCampaignInput,
  type CreateCampaignInput,
  type HeartbeatInput,
  type UpdateTaskInput,
} from '../../operations/campaign.js';
import { CliError } from '../../errors.js';
import { argument, choiceOption, flagOption, numberFrom, stringOption, type OptionBag } from '../../option-values.js';

export function campaignInput(): CampaignInput {
  return {};
}

export function createInput(args: readonly string[], options: OptionBag): CreateCampaignInput {
  return { objective: args[0] ?? '', framework: stringOption(options, 'framework') };
}

/** A plan file, or standard input (no argument, or "-"). */
export function addTasksInput(args: readonly string[]): AddTasksInput {
  return { plan: planSource(args[0]) };
}

export function readyInput(_args: readonly string[], options: OptionBag): CampaignReadyInput {
  return { claim: stringOption(options, 'claim'), lease: stringOption(options, 'lease') };
}

export function heartbeatInput(args: readonly string[], options: OptionBag): HeartbeatInput {
  const runner = args[0];
  if (runner === undefined) throw new CliError('heartbeat needs the runner name given to `ready --claim`');
  return { runner, lease: stringOption(options, 'lease') };
}

export function updateTaskInput(args: readonly string[], options: OptionBag): UpdateTaskInput {
  // commander checked the choice; an unknown status is still a usage error here, never a cast.
  const given = argument(args, 1, 'status');
  const status = TASK_STATUS_NAMES.find((s) => s === given);
  if (status === undefined) throw new CliError(`<status> must be one of ${TASK_STATUS_NAMES.join(', ')}`);
  return { seq: args[0] ?? '', status, reason: stringOption(options, 'reason'), runner: stringOption(options, 'runner'), asUser: stringOption(options, 'as') === 'user' };
}

export function phaseInput(args: readonly string[], options: OptionBag): CampaignPhaseInput {
  return { event: args[0] === 'explored' ? 'explored' : undefined, reason: stringOption(options, 'reason') };
}

export function completeInput(_args: readonly string[], options: OptionBag): CompleteCampaignInput {
  return { force: flagOption(options, 'force'), skipObserve: stringOption(options, 'skipObserve'), workspaceDir: stringOption(options, 'workspaceDir') };
}

/** The formats `campaign graph` draws. */
export const GRAPH_FORMATS = ['mermaid', 'dot'] as const;

/** `campaign graph`: Mermaid (default) or Graphviz DOT. */
export interface CampaignGraphArgs {
  format: (typeof GRAPH_FORMATS)[number];
}

export function graphInput(_args: readonly string[], options: OptionBag): CampaignGraphArgs {
  return { format: choiceOption(options, 'format', GRAPH_FORMATS) ?? 'mermaid' };
}

/** `campaign find-similar`: an objective (and its framework) to compare instead of the active campaign's, and the minimum score. */
export interface FindSimilarArgs {
  objective: string | undefined;
  framework: string | undefined;
  threshold: number | undefined;
}

export function findSimilarInput(_args: readonly string[], options: OptionBag): FindSimilarArgs {
  const given = stringOption(options, 'threshold');
  let threshold: number | undefined;
  if (given !== undefined) {
    threshold = numberFrom(given);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new CliError(`--threshold must be a number from 0 to 1, got ${given}`);
  }
  const objective = stringOption(options, 'objective');
  const framework = stringOption(options, 'framework');
  if (framework !== undefined && objective === undefined) throw new CliError("--framework goes with --objective (without it the active campaign's framework is used)");
  return { objective, framework, threshold };
}
