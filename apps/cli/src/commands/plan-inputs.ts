/**
 * The edge of the plan commands: commander's arguments and options (program.ts defines them) parsed
 * into the typed inputs of src/operations/plan.ts. The command modules see only these.
 */
import type { DeregisterPlanInput, PlanCheckInput, RegisterPlanInput } from '../operations/plan-input.js';
import { CliError } from '../errors.js';
import { argument, choiceOption, flagOption, stringOption, type OptionBag } from '../option-values.js';

export const LINT_FORMATS = ['stylish', 'json', 'sarif'] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

export function planCheckInput(args: readonly string[], options: OptionBag): PlanCheckInput {
  return {
    plan: argument(args, 0, 'plan'),
    root: stringOption(options, 'root'),
    dialect: stringOption(options, 'dialect'),
    fsm: stringOption(options, 'fsm'),
    registry: stringOption(options, 'registry'),
  };
}

/** `plan lint`: the check's input and how its findings are printed. */
export function planLintInput(args: readonly string[], options: OptionBag): PlanCheckInput & { format: LintFormat } {
  return { ...planCheckInput(args, options), format: choiceOption(options, 'format', LINT_FORMATS) ?? 'stylish' };
}

/** `plan registry register|deregister|list`: the action is commander's leading argument (program.ts). */
export type PlanRegistryCall =
  | { action: 'list'; registry: string | undefined }
  | ({ action: 'register' } & RegisterPlanInput)
  | ({ action: 'deregister' } & DeregisterPlanInput);

export function planRegistryInput(args: readonly string[], options: OptionBag): PlanRegistryCall {
  const [action] = args;
  const registry = stringOption(options, 'registry');
  if (action === 'list') return { action, registry };
  const name = argument(args, 1, 'name');
  if (action === 'register') return { action, name, path: argument(args, 2, 'path'), force: flagOption(options, 'force'), registry };
  return { action: 'deregister', name, registry };
}

export interface PlanFmtInput {
  plan: string;
  /** Rewrite the file in place (only when it changes). */
  write: boolean;
}

export function planFmtInput(args: readonly string[], options: OptionBag): PlanFmtInput {
  const [plan] = args;
  if (plan === undefined) throw new CliError('plan fmt: missing <plan>');
  return { plan, write: flagOption(options, 'write') };
}
