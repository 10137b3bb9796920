/**
 * The edge of the store commands: commander's arguments and options (register.ts defines them)
 * parsed into typed inputs. The command modules see only these.
 */
import { CliError } from '../../errors.js';
import { stringOption, type OptionBag } from '../../option-values.js';

export interface StoreExportInput {
  /** The file to write (as given, relative to --cwd), or undefined for standard output. */
  out: string | undefined;
}

export function storeExportInput(_args: readonly string[], options: OptionBag): StoreExportInput {
  return { out: stringOption(options, 'out') };
}

export interface StoreImportInput {
  /** The export file (relative to --cwd), or "-" for standard input. */
  file: string;
}

export function storeImportInput(args: readonly string[]): StoreImportInput {
  const [file] = args;
  if (file === undefined) throw new CliError('import needs the export file (or "-" for standard input)');
  return { file };
}
