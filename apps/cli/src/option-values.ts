/**
 * Reading commander's parsed options at the edge, checked rather than cast: commander hands an
 * action `Record<string, unknown>`, and each command area's `inputs.ts` turns it into its
 * operation's typed input with these (src/operations/). A value of the wrong kind is a usage error
 * naming the option, never a silent `as`.
 */
import type { CommandAction, Context } from './context.js';
import { CliError } from './errors.js';

export type OptionBag = Readonly<Record<string, unknown>>;

/** `--kebab-name` for commander's camelCase key, for messages. */
function flag(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A string option, or undefined when not given. */
export function stringOption(options: OptionBag, key: string): string | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new CliError(`${flag(key)} takes a value`);
  return value;
}

/** A repeatable string option (`--id a --id b`), or undefined when not given. */
export function stringsOption(options: OptionBag, key: string): string[] | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) throw new CliError(`${flag(key)} takes a value each time it is given`);
  return value;
}

/** A boolean flag: true only when given (commander sets false for a `--no-` form). */
export function flagOption(options: OptionBag, key: string): boolean {
  const value = options[key];
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw new CliError(`${flag(key)} takes no value`);
}

/** A string option that must be one of `choices`. */
export function choiceOption<T extends string>(options: OptionBag, key: string, choices: readonly T[]): T | undefined {
  const value = stringOption(options, key);
  if (value === undefined) return undefined;
  const chosen = choices.find((c) => c === value);
  if (chosen === undefined) throw new CliError(`${flag(key)} must be one of ${choices.join(', ')}`);
  return chosen;
}

/** The number an option's text names: NaN when it names none, a blank text included (`Number('')` would be 0). */
export function numberFrom(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** A required positional argument. */
export function argument(args: readonly string[], index: number, name: string): string {
  const value = args[index];
  if (value === undefined) throw new CliError(`missing <${name}>`);
  return value;
}

/**
 * A command action whose arguments and options are parsed into its operation's typed input first:
 * the module's code below the edge never touches the option bag.
 */
export function withInput<I>(parse: (args: readonly string[], options: OptionBag) => I, run: (ctx: Context, input: I) => Promise<number>): CommandAction {
  return (ctx, args, options) => run(ctx, parse(args, options));
}
