/**
 * The edge of the JIXO area: commander's arguments and options (register.ts defines them) parsed
 * into the typed inputs of src/operations/jixo*.ts. The command modules see only these. The verb
 * a module serves (`lock`, `complete`, ...) comes first in `args`, as register.ts passes it.
 */
import { CliError } from '../../errors.js';
import { leaseOption } from '../../lease-option.js';
import { JIXO_RESULTS, type JixoCheckInput, type JixoClarifyInput, type JixoDecideInput, type JixoLockInput, type JixoLogChangeInput, type JixoTaskMoveInput, type JixoTriageInput, type JixoUnlockInput } from '../../operations/jixo-input.js';
import { argument, choiceOption, flagOption, stringOption, type OptionBag } from '../../option-values.js';
import { int } from './shared.js';

/** A comma-separated list (`--active a,b`, `--on 1.1,1.2`); `""` is the empty list. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An option commander declared required (or with a default): present unless the tree changed. */
function required(options: OptionBag, key: string): string {
  const value = stringOption(options, key);
  if (value === undefined) throw new CliError(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is required`);
  return value;
}

export function checkInput(args: readonly string[]): JixoCheckInput {
  return { file: argument(args, 0, 'file') };
}

export function triageInput(args: readonly string[], options: OptionBag): JixoTriageInput {
  return {
    job: argument(args, 0, 'job'),
    runner: required(options, 'runner'),
    active: list(stringOption(options, 'active') ?? ''),
    log: stringOption(options, 'log'),
    leaseMs: leaseOption(stringOption(options, 'lease')),
    dryRun: flagOption(options, 'dryRun'),
  };
}

export type LockCommandInput = { verb: 'lock'; input: JixoLockInput } | { verb: 'unlock'; input: JixoUnlockInput } | { verb: 'decide'; input: JixoDecideInput };

/** `jixo lock|unlock|accept|restore <log>`. */
export function lockInput(args: readonly string[], options: OptionBag): LockCommandInput {
  const verb = argument(args, 0, 'verb');
  const log = argument(args, 1, 'log');
  if (verb === 'accept' || verb === 'restore') return { verb: 'decide', input: { log, decision: verb } };
  const runner = required(options, 'runner');
  if (verb === 'unlock') return { verb, input: { log, runner } };
  const staleAfter = stringOption(options, 'staleAfter');
  // `--lease 15m`, as every other --lease (a bare number is milliseconds, as it always was here).
  return { verb: 'lock', input: { log, runner, timeoutMs: int('timeout', stringOption(options, 'timeout') ?? 10_000), leaseMs: leaseOption(stringOption(options, 'lease')), ...(staleAfter !== undefined ? { staleAfterMs: int('stale-after', staleAfter) } : {}) } };
}

/** `jixo task <verb> <log> [id]` but list. */
export function taskInput(args: readonly string[], options: OptionBag): JixoTaskMoveInput {
  const verb = argument(args, 0, 'verb');
  const log = argument(args, 1, 'log');
  const runner = stringOption(options, 'runner');
  const id = (): string => argument(args, 2, 'id');
  switch (verb) {
    case 'lock':
      return { log, verb, id: id(), runner: required(options, 'runner'), leaseMs: leaseOption(stringOption(options, 'lease')) };
    case 'complete':
    case 'fail':
    case 'pause':
      return { log, verb, id: id(), runner: required(options, 'runner'), summary: required(options, 'summary'), objective: stringOption(options, 'objective'), blocker: stringOption(options, 'blocker') };
    case 'unblock':
      return { log, verb, id: id(), runner, summary: required(options, 'summary') };
    case 'edit':
      return { log, verb, id: id(), runner, title: required(options, 'title') };
    case 'depends':
      return { log, verb, id: id(), runner, on: list(required(options, 'on')) };
    case 'remove':
    case 'retry':
      return { log, verb, id: id(), runner };
    case 'cancel':
      return { log, verb, id: id(), runner, summary: stringOption(options, 'summary') };
    case 'add': {
      const dependsOn = stringOption(options, 'dependsOn');
      return { log, verb, runner, title: required(options, 'title'), id: stringOption(options, 'id'), parent: stringOption(options, 'parent'), dependsOn: dependsOn === undefined ? undefined : list(dependsOn), phase: flagOption(options, 'phase') };
    }
    default:
      throw new CliError(`unknown jixo task command: ${verb}`);
  }
}

/** `jixo log add | title | progress | exit <log>`. */
export function logInput(args: readonly string[], options: OptionBag): JixoLogChangeInput {
  const verb = argument(args, 0, 'verb');
  const log = argument(args, 1, 'log');
  const runner = stringOption(options, 'runner');
  switch (verb) {
    case 'add':
      return { log, verb, runner, role: choiceOption(options, 'role', ['Planner', 'Runner'] as const), objective: required(options, 'objective'), summary: required(options, 'summary'), result: choiceOption(options, 'result', JIXO_RESULTS), job: stringOption(options, 'job') };
    case 'title':
      return { log, verb, runner, title: argument(args, 2, 'title') };
    case 'progress':
      return { log, verb };
    case 'exit': {
      const code = choiceOption(options, 'code', ['0', '1', '2'] as const);
      if (code === undefined) throw new CliError('--code is required');
      return { log, verb, runner: required(options, 'runner'), code: code === '0' ? 0 : code === '1' ? 1 : 2, reason: required(options, 'reason') };
    }
    default:
      throw new CliError(`unknown jixo log command: ${verb}`);
  }
}

/** `jixo clarify add|list|remove <job>`. */
export function clarifyInput(args: readonly string[], options: OptionBag): JixoClarifyInput {
  const verb = argument(args, 0, 'verb');
  const job = argument(args, 1, 'job');
  if (verb === 'add') return { job, verb, id: required(options, 'id'), question: required(options, 'question') };
  if (verb === 'remove') return { job, verb, id: argument(args, 2, 'id') };
  if (verb === 'list') return { job, verb };
  throw new CliError(`unknown jixo clarify command: ${verb}`);
}
