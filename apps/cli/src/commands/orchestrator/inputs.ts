/**
 * The edge of the orchestrator area: commander's arguments and options (register.ts defines them)
 * parsed into the typed inputs of src/operations/orchestrator*.ts. The command modules see only these.
 */
import type { ResearchPlanInput, RunPlanInput, StepResultInput, TaskCloseInput, TaskSessionInput, TaskStartInput, TaskSubmitInput } from '../../operations/orchestrator-input.js';
import { argument, flagOption, stringOption, type OptionBag } from '../../option-values.js';

const session = (options: OptionBag): TaskSessionInput => ({ session: stringOption(options, 'session') });

/** The task id as given; the operation checks it (checkTaskId) so both faces refuse a bad one alike. */
const taskId = (options: OptionBag): string => stringOption(options, 'taskId') ?? '';

export function taskStartInput(_args: readonly string[], options: OptionBag): TaskStartInput {
  return {
    ...session(options),
    taskId: taskId(options),
    // commander's --no-network sets network to false; --network-timeout and --network-target are strings.
    network: options.network !== false,
    networkTarget: stringOption(options, 'networkTarget'),
    networkTimeout: stringOption(options, 'networkTimeout'),
  };
}

export function taskCloseInput(_args: readonly string[], options: OptionBag): TaskCloseInput {
  return { ...session(options), taskId: taskId(options), abandon: flagOption(options, 'abandon'), reason: stringOption(options, 'reason') };
}

export function taskSubmitInput(_args: readonly string[], options: OptionBag): TaskSubmitInput {
  return { ...session(options), taskId: taskId(options) };
}

export function runPlanInput(args: readonly string[], options: OptionBag): RunPlanInput {
  return { ...session(options), plan: argument(args, 0, 'plan'), dialect: stringOption(options, 'dialect'), registry: stringOption(options, 'registry') };
}

export function stepResultInput(_args: readonly string[], options: OptionBag): StepResultInput {
  return { ...session(options), failed: flagOption(options, 'failed'), message: stringOption(options, 'message') };
}

export function researchPlanInput(args: readonly string[], options: OptionBag): ResearchPlanInput {
  return { ...session(options), topic: args.join(' ') };
}

/** `task reset`: a person's command with no operation (no MCP tool); its options read here all the same, checked in the command after the actor. */
export interface TaskResetInput extends TaskSessionInput {
  taskId: string;
  reason: string | undefined;
  to: string | undefined;
}

export function taskResetInput(_args: readonly string[], options: OptionBag): TaskResetInput {
  return { ...session(options), taskId: taskId(options), reason: stringOption(options, 'reason'), to: stringOption(options, 'to') };
}

export function taskSessionInput(_args: readonly string[], options: OptionBag): TaskSessionInput {
  return session(options);
}
