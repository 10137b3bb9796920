/**
 * The edge of `ratchet import`: commander's arguments and options (register.ts defines them) parsed
 * into a typed input. import.ts sees only this.
 */
import { CliError } from '../../errors.js';
import { flagOption, type OptionBag } from '../../option-values.js';
import { SYSTEMS, type System } from './layouts.js';

export interface ImportInput {
  /** One system, or every layout found. */
  system: System | 'auto';
  /** The project directory as given (relative to --cwd), or undefined for the current one. */
  dir: string | undefined;
  /** Carry out the conversions. */
  write: boolean;
}

export function importInput(args: readonly string[], options: OptionBag): ImportInput {
  const [which, dir] = args;
  const system = which === 'auto' ? 'auto' : SYSTEMS.find((s) => s === which);
  if (system === undefined) throw new CliError(`import: unknown system ${JSON.stringify(which ?? '')} (expected one of ${[...SYSTEMS, 'auto'].join(', ')})`);
  return { system, dir, write: flagOption(options, 'write') };
}
