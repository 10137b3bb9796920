/**
 * The edge of the flow area: commander's arguments and options (register.ts defines them) parsed
 * into the typed inputs of src/operations/flows.ts. The command modules see only these.
 */
import type { FlowBranchInput, FlowHaltInput, FlowStartInput, FlowStatusInput } from '../../operations/flows.js';
import { advanceKind } from '../../operations/flows.js';
import { argument, flagOption, stringOption, stringsOption, type OptionBag } from '../../option-values.js';
import { CliError } from '../../errors.js';
import { parsePairs } from '../../pairs.js';

/** `--session` is required by commander; checked again so the input's type holds. */
function sessionInput(options: OptionBag): string {
  const session = stringOption(options, 'session');
  if (session === undefined) throw new CliError('missing --session <id>');
  return session;
}

export function startInput(args: readonly string[], options: OptionBag): FlowStartInput {
  return {
    flow: argument(args, 0, 'flow'),
    session: sessionInput(options),
    inputs: parsePairs(stringsOption(options, 'input'), '--input'),
    agent: flagOption(options, 'agent'),
    then: stringsOption(options, 'then'),
  };
}

/** `flow advance`'s input but for the output, which is still a file name (or - for standard input) here. */
export interface AdvanceArgs {
  session: string;
  loop: boolean;
  remediate: boolean;
  set: Record<string, string>;
  notes: string[] | undefined;
  questions: string[] | undefined;
  outputFrom: string | undefined;
  then: string[] | undefined;
}

export function advanceInput(_args: readonly string[], options: OptionBag): AdvanceArgs {
  const loop = flagOption(options, 'loop');
  const remediate = flagOption(options, 'remediate');
  // Refused before the output is read.
  advanceKind({ loop, remediate });
  return {
    session: sessionInput(options),
    loop,
    remediate,
    set: parsePairs(stringsOption(options, 'set'), '--set'),
    notes: stringsOption(options, 'note'),
    questions: stringsOption(options, 'question'),
    outputFrom: stringOption(options, 'output'),
    then: stringsOption(options, 'then'),
  };
}

export function branchInput(args: readonly string[], options: OptionBag): FlowBranchInput {
  return { session: sessionInput(options), branch: argument(args, 0, 'branch') };
}

/** `--reason` is required by commander; checked again so the input's type holds. */
function reasonInput(options: OptionBag): string {
  const reason = stringOption(options, 'reason');
  if (reason === undefined) throw new CliError('missing --reason <text>');
  return reason;
}

export function haltInput(_args: readonly string[], options: OptionBag): FlowHaltInput {
  const reason = reasonInput(options);
  return { session: sessionInput(options), reason };
}

export function statusInput(_args: readonly string[], options: OptionBag): FlowStatusInput {
  return { session: stringOption(options, 'session') };
}

/** `flow resume`: the user's answers (one per clarifying question, in order) and notes. */
export interface FlowResumeArgs {
  session: string;
  answers: string[];
  notes: string[];
}

export function resumeInput(_args: readonly string[], options: OptionBag): FlowResumeArgs {
  return { session: sessionInput(options), answers: stringsOption(options, 'answer') ?? [], notes: stringsOption(options, 'note') ?? [] };
}

/** `flow decline`: why the flow a finished session routed to is not wanted. */
export interface FlowDeclineArgs {
  session: string;
  reason: string;
}

export function declineInput(_args: readonly string[], options: OptionBag): FlowDeclineArgs {
  const reason = reasonInput(options);
  return { session: sessionInput(options), reason };
}
