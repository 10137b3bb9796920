/**
 * Checks on a typed tool's arguments that its zod shape cannot state: an argument one `action`
 * needs and the others do not (a union of shapes per action is what clients handle badly). A missing
 * one is the CLI's usage error (exit 2, its error document), thrown inside the operation so that the
 * MCP face reports it as the CLI would, also where the tool must know it before choosing its
 * command (`command:`, with `need`).
 */
import type { CliError } from '@ratchet/cli';
import type { ToolArgs } from './tool-spec.js';

const missing = (args: ToolArgs, name: string): string => `${name} is required${typeof args.action === 'string' ? ` for action ${args.action}` : ''}`;

/** `value` (the argument `name`), or a usage error naming it; `cli` is the loaded CLI module. */
export function requiredFrom<T>(cli: { CliError: typeof CliError }, args: ToolArgs, name: string, value: T | undefined): T {
  if (value !== undefined && value !== null) return value;
  throw new cli.CliError(missing(args, name), { code: 'bad-option' });
}

/** requiredFrom, loading the CLI module first. */
export async function requiredArg<T>(args: ToolArgs, name: string, value: T | undefined): Promise<T> {
  return requiredFrom(await import('@ratchet/cli'), args, name, value);
}

/**
 * A missing argument found by a tool's `command:`, which runs before the CLI module is needed (it
 * must stay synchronous); invoke.ts reports it as the CLI's usage error, like `requiredFrom`'s.
 */
export class MissingArgument extends Error {}

/** `args[name]`, or MissingArgument naming it: for checks made before the operation runs (a tool's `command:`). */
export function need(args: ToolArgs, name: string): unknown {
  const value = args[name];
  if (value === undefined || value === null) throw new MissingArgument(missing(args, name));
  return value;
}
