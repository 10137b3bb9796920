/**
 * The edge of `ratchet quickstart`: commander's options (program.ts defines them) parsed into a
 * typed input. quickstart.ts sees only this.
 */
import { stringOption, type OptionBag } from '../option-values.js';

export interface QuickstartInput {
  /** The directory to run the tour in (relative to --cwd; empty or absent), or undefined for a new temporary one. */
  dir: string | undefined;
}

export function quickstartInput(_args: readonly string[], options: OptionBag): QuickstartInput {
  return { dir: stringOption(options, 'dir') };
}
