/**
 * Checks on a typed tool's arguments that its zod shape cannot state (an argument one `action`
 * needs and the others do not). A missing one is the CLI's usage error (exit 2, its error
 * document), thrown inside the operation so that the MCP face reports it as the CLI would.
 */
import type { ToolArgs } from './tool-spec.js';

/** `args[name]`, or a usage error naming it (and the action that needs it). */
export async function requiredArg<T>(args: ToolArgs, name: string, value: T | undefined): Promise<T> {
  if (value !== undefined && value !== null) return value;
  const { CliError } = await import('@ratchet/cli');
  throw new CliError(`${name} is required${typeof args.action === 'string' ? ` for action ${args.action}` : ''}`, { code: 'bad-option' });
}
