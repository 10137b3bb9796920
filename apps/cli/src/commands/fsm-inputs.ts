/**
 * The edge of the fsm commands: commander's arguments and options (program.ts defines them) parsed
 * into typed inputs. The command modules (fsm-check.ts, fsm-render.ts, fsm-accept.ts) see only these.
 */
import { CliError } from '../errors.js';
import { choiceOption, flagOption, stringOption, type OptionBag } from '../option-values.js';

export interface FsmCheckInput {
  files: string[];
  /** Warnings count as problems (exit 1). */
  strict: boolean;
}

export function fsmCheckInput(args: readonly string[], options: OptionBag): FsmCheckInput {
  return { files: [...args], strict: flagOption(options, 'strict') };
}

export const RENDER_FORMATS = ['mermaid', 'dot'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

export interface FsmRenderInput {
  file: string;
  format: RenderFormat;
}

export function fsmRenderInput(args: readonly string[], options: OptionBag): FsmRenderInput {
  const [file] = args;
  if (file === undefined) throw new CliError('fsm render: missing <file>');
  return { file, format: choiceOption(options, 'format', RENDER_FORMATS) ?? 'mermaid' };
}

/** The word to run: symbols given on the command line, or a file (or "-", standard input) holding them. */
export type FsmWord = { symbols: string[] } | { fromFile: string };

export interface FsmAcceptInput {
  file: string;
  word: FsmWord;
}

export function fsmAcceptInput(args: readonly string[], options: OptionBag): FsmAcceptInput {
  const [file, ...inline] = args;
  if (file === undefined) throw new CliError('fsm accept: missing <file>');
  const fromFile = stringOption(options, 'fromFile');
  if (fromFile === undefined) return { file, word: { symbols: inline } };
  if (inline.length > 0) throw new CliError('fsm accept: give the symbols either as arguments or with --from-file, not both');
  return { file, word: { fromFile } };
}
